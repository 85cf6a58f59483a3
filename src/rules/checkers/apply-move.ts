import type { Move } from './move.js';
import { EMPTY, Piece, colourOf, kingOf, opponentOf } from './pieces.js';
import { Position } from './position.js';

/**
 * The position after a move, which the caller has established as legal: captured pieces leave the
 * board only now, at the end of the move, and a promoting man arrives as a king.
 */
export function applyMove(position: Position, move: Move): Position {
  const cells = position.cells.slice();
  const piece = cells[move.from] as Piece;
  cells[move.from] = EMPTY;
  for (const square of move.captured) cells[square] = EMPTY;
  cells[move.landings[move.landings.length - 1]] = move.promotes ? kingOf(colourOf(piece)) : piece;
  return new Position(cells, opponentOf(position.toMove));
}
