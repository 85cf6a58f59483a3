import type { Move } from './move.js';
import { Colour, EMPTY, Piece, colourOf, isKing, promotionRow } from './pieces.js';
import type { Position } from './position.js';
import { RAYS } from './rays.js';
import { SQUARE_COUNT, Square, rowOf } from './squares.js';

/**
 * Capture sequences under the Russian rules:
 * - men capture forwards and backwards, jumping an adjacent enemy to the empty square behind it;
 * - kings fly: any distance to the enemy, landing on any empty square beyond it, but when some of
 *   those landings let the capture continue, the king must take one of them;
 * - a sequence goes on while a capture is possible (any sequence, not necessarily the longest);
 * - a man reaching the last row is crowned at once and continues capturing as a king;
 * - captured pieces stay on the board until the move ends: they block, and are never jumped twice
 *   (the "Turkish strike" rule).
 */

/** All complete capture sequences of the side to move. */
export function captureMoves(position: Position): Move[] {
  const moves: Move[] = [];
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const cell = position.cells[square];
    if (cell !== EMPTY && colourOf(cell as Piece) === position.toMove) collectFrom(position, square, moves);
  }
  return moves;
}

/** All complete capture sequences of the piece on `from` (of whichever colour stands there). */
export function capturesFrom(position: Position, from: Square): Move[] {
  const moves: Move[] = [];
  if (position.cells[from] !== EMPTY) collectFrom(position, from, moves);
  return moves;
}

/** Whether the side to move has any capture: the cheap test that makes capturing mandatory. */
export function hasCapture(position: Position): boolean {
  const cells = position.cells;
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const cell = cells[square];
    if (cell === EMPTY || colourOf(cell as Piece) !== position.toMove) continue;
    if (canCaptureFrom(cells, NO_JUMPS, square, isKing(cell as Piece), position.toMove)) return true;
  }
  return false;
}

const NO_JUMPS = new Uint8Array(SQUARE_COUNT);

/** Search state of one piece's capture sequences; the board is a scratch copy with the mover lifted off. */
interface Search {
  readonly cells: Uint8Array;
  readonly jumped: Uint8Array;
  readonly colour: Colour;
  readonly from: Square;
  readonly startedKing: boolean;
  readonly landings: Square[];
  readonly captured: Square[];
  readonly out: Move[];
}

function collectFrom(position: Position, from: Square, out: Move[]): void {
  const piece = position.cells[from] as Piece;
  const cells = position.cells.slice();
  // The mover leaves its square at once: a king's path may cross its own starting square.
  cells[from] = EMPTY;
  const search: Search = {
    cells,
    jumped: new Uint8Array(SQUARE_COUNT),
    colour: colourOf(piece),
    from,
    startedKing: isKing(piece),
    landings: [],
    captured: [],
    out,
  };
  extend(search, from, isKing(piece));
}

function isEnemy(cell: number, colour: Colour): boolean {
  return cell !== EMPTY && colourOf(cell as Piece) !== colour;
}

/** Continues the sequence from `square`; records it as complete when no capture is left. */
function extend(search: Search, square: Square, king: boolean): void {
  const { cells, jumped, colour } = search;
  let continued = false;
  const rays = RAYS[square];
  for (let direction = 0; direction < 4; direction++) {
    const ray = rays[direction];
    if (king) {
      let i = 0;
      while (i < ray.length && cells[ray[i]] === EMPTY) i++;
      if (i >= ray.length - 1) continue;
      const victim = ray[i];
      if (jumped[victim] || !isEnemy(cells[victim], colour)) continue;
      const landings: Square[] = [];
      for (let j = i + 1; j < ray.length && cells[ray[j]] === EMPTY; j++) landings.push(ray[j]);
      if (landings.length === 0) continue;
      continued = true;
      jumped[victim] = 1;
      const continuing = landings.filter((landing) => canCaptureFrom(cells, jumped, landing, true, colour));
      for (const landing of continuing.length > 0 ? continuing : landings) {
        step(search, victim, landing, true);
      }
      jumped[victim] = 0;
    } else {
      if (ray.length < 2) continue;
      const victim = ray[0];
      const landing = ray[1];
      if (jumped[victim] || !isEnemy(cells[victim], colour) || cells[landing] !== EMPTY) continue;
      continued = true;
      jumped[victim] = 1;
      step(search, victim, landing, rowOf(landing) === promotionRow(colour));
      jumped[victim] = 0;
    }
  }
  if (!continued && search.captured.length > 0) {
    search.out.push({
      from: search.from,
      landings: search.landings.slice(),
      captured: search.captured.slice(),
      promotes: !search.startedKing && king,
    });
  }
}

function step(search: Search, victim: Square, landing: Square, king: boolean): void {
  search.captured.push(victim);
  search.landings.push(landing);
  extend(search, landing, king);
  search.landings.pop();
  search.captured.pop();
}

/** Whether a piece standing on `square` could capture something now (ignoring pieces already jumped). */
export function canCaptureFrom(cells: Uint8Array, jumped: Uint8Array, square: Square, king: boolean, colour: Colour): boolean {
  const rays = RAYS[square];
  for (let direction = 0; direction < 4; direction++) {
    const ray = rays[direction];
    let i = 0;
    if (king) while (i < ray.length && cells[ray[i]] === EMPTY) i++;
    if (i >= ray.length - 1) continue;
    const victim = ray[i];
    if (!jumped[victim] && isEnemy(cells[victim], colour) && cells[ray[i + 1]] === EMPTY) return true;
  }
  return false;
}
