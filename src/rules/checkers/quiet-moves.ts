import type { Move } from './move.js';
import { EMPTY, Piece, colourOf, forwardRowStep, isKing, promotionRow } from './pieces.js';
import type { Position } from './position.js';
import { RAYS } from './rays.js';
import { DIAGONALS, SQUARE_COUNT, Square, rowOf } from './squares.js';

/**
 * Non-capturing moves: a man steps one square diagonally forwards (crowned on the last row);
 * a king flies any distance along a diagonal over empty squares.
 * Only legal when the side to move has no capture.
 */
export function quietMoves(position: Position): Move[] {
  const moves: Move[] = [];
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const cell = position.cells[square];
    if (cell !== EMPTY && colourOf(cell as Piece) === position.toMove) quietMovesFrom(position, square, moves);
  }
  return moves;
}

export function quietMovesFrom(position: Position, from: Square, out: Move[] = []): Move[] {
  const piece = position.cells[from] as Piece;
  if ((piece as number) === EMPTY) return out;
  const colour = colourOf(piece);
  const king = isKing(piece);
  for (let direction = 0; direction < 4; direction++) {
    const ray = RAYS[from][direction];
    if (king) {
      for (const square of ray) {
        if (position.cells[square] !== EMPTY) break;
        out.push({ from, landings: [square], captured: [], promotes: false });
      }
    } else if (DIAGONALS[direction][0] === forwardRowStep(colour) && ray.length > 0 && position.cells[ray[0]] === EMPTY) {
      out.push({ from, landings: [ray[0]], captured: [], promotes: rowOf(ray[0]) === promotionRow(colour) });
    }
  }
  return out;
}

/** Whether the side to move can make a non-capturing move. */
export function hasQuietMove(position: Position): boolean {
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const cell = position.cells[square];
    if (cell === EMPTY || colourOf(cell as Piece) !== position.toMove) continue;
    const colour = colourOf(cell as Piece);
    const king = isKing(cell as Piece);
    for (let direction = 0; direction < 4; direction++) {
      if (!king && DIAGONALS[direction][0] !== forwardRowStep(colour)) continue;
      const ray = RAYS[square][direction];
      if (ray.length > 0 && position.cells[ray[0]] === EMPTY) return true;
    }
  }
  return false;
}
