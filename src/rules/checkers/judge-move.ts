import { capturesFrom, canCaptureFrom, hasCapture } from './captures.js';
import { Move, moveNotation, sameSquares } from './move.js';
import { EMPTY, Piece, colourOf, describePiece, isKing, promotionRow } from './pieces.js';
import type { Position } from './position.js';
import { quietMovesFrom } from './quiet-moves.js';
import { RAYS, directionBetween } from './rays.js';
import { SQUARE_COUNT, Square, rowOf, squareName } from './squares.js';

/**
 * A move as a record states it: where the piece starts, where it stops, and (for captures) which
 * squares it says were captured, one per landing.
 */
export interface ProposedMove {
  readonly from: Square;
  readonly landings: readonly Square[];
  readonly captured: readonly Square[];
}

export type Judgement = { readonly legal: true; readonly move: Move } | { readonly legal: false; readonly reason: string };

/**
 * Whether a proposed move is legal in the position; when it is not, why, in words a player would use
 * (e.g. `capture was mandatory: c5:e3 available`). Only the proposed piece's moves are generated,
 * plus a cheap check whether any capture exists, so replaying a game stays fast.
 */
export function judgeMove(position: Position, proposed: ProposedMove): Judgement {
  const piece = position.at(proposed.from);
  const side = position.toMove;
  if (piece === EMPTY) return illegal(`there is no piece on ${squareName(proposed.from)}`);
  if (colourOf(piece) !== side) {
    return illegal(`${squareName(proposed.from)} holds a ${describePiece(piece)}, but ${side} is to move`);
  }
  if (proposed.captured.length === 0) return judgeQuiet(position, proposed, piece);
  if (proposed.captured.length !== proposed.landings.length) return illegal('a capture needs one captured piece per landing');
  const match = capturesFrom(position, proposed.from).find((move) => sameSquares(move.landings, proposed.landings));
  if (match && sameSquares(match.captured, proposed.captured)) return { legal: true, move: match };
  return illegal(explainCapture(position, proposed, piece, match));
}

function judgeQuiet(position: Position, proposed: ProposedMove, piece: Piece): Judgement {
  const written = `${squareName(proposed.from)}-${proposed.landings.map(squareName).join('-')}`;
  if (proposed.landings.length !== 1) return illegal(`${written}: a quiet move has one destination`);
  // The cheap test first: naming an available capture needs a full search, worth it only for an illegal move.
  const capture = hasCapture(position) ? firstCapture(position) : null;
  if (capture) return illegal(`capture was mandatory: ${moveNotation(capture)} available`);
  const to = proposed.landings[0];
  const match = quietMovesFrom(position, proposed.from).find((move) => move.landings[0] === to);
  if (match) return { legal: true, move: match };
  return illegal(`${written} is not a legal move: ${explainQuiet(position, proposed.from, to, piece)}`);
}

function explainQuiet(position: Position, from: Square, to: Square, piece: Piece): string {
  const direction = directionBetween(from, to);
  if (direction < 0) return 'the squares are not on one diagonal';
  if (position.at(to) !== EMPTY) return `${squareName(to)} is occupied`;
  if (isKing(piece)) return 'a piece stands in the way';
  const rowStep = rowOf(to) - rowOf(from);
  if (Math.abs(rowStep) !== 1) return 'a man moves one square';
  return 'a man moves only forwards';
}

/** The first capture found for the side to move, to name in a message; null when there is none. */
function firstCapture(position: Position): Move | null {
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const cell = position.cells[square];
    if (cell === EMPTY || colourOf(cell as Piece) !== position.toMove) continue;
    const moves = capturesFrom(position, square);
    if (moves.length > 0) return moves[0];
  }
  return null;
}

/**
 * Walks the proposed capture one jump at a time and names the first rule it breaks. `match` is the
 * legal sequence with the same landings, when there is one (then only the captured squares were wrong).
 */
function explainCapture(position: Position, proposed: ProposedMove, piece: Piece, match: Move | undefined): string {
  const colour = colourOf(piece);
  const written = [proposed.from, ...proposed.landings].map(squareName).join(':');
  if (match) {
    const at = match.captured.findIndex((square, i) => square !== proposed.captured[i]);
    return `${written} captures ${squareName(match.captured[at])}, not ${squareName(proposed.captured[at])} as written`;
  }
  const cells = position.cells.slice();
  cells[proposed.from] = EMPTY;
  const jumped = new Uint8Array(SQUARE_COUNT);
  let king = isKing(piece);
  let square = proposed.from;
  for (let i = 0; i < proposed.landings.length; i++) {
    const landing = proposed.landings[i];
    const jump = `${squareName(square)}:${squareName(landing)}`;
    const direction = directionBetween(square, landing);
    if (direction < 0) return `${written}: ${jump} is not along a diagonal`;
    if (cells[landing] !== EMPTY) return `${written}: ${squareName(landing)} is occupied`;
    const between: Square[] = [];
    for (const s of RAYS[square][direction]) {
      if (s === landing) break;
      if (cells[s] !== EMPTY) between.push(s);
    }
    if (between.length === 0) return `${written}: ${jump} jumps no piece`;
    if (between.length > 1) return `${written}: ${jump} jumps more than one piece`;
    const victim = between[0];
    if (jumped[victim]) {
      return `${written}: ${squareName(victim)} would be jumped twice (a captured piece stays on the board until the move ends)`;
    }
    if (colourOf(cells[victim] as Piece) === colour) return `${written}: ${jump} jumps its own piece on ${squareName(victim)}`;
    if (!king && Math.abs(rowOf(landing) - rowOf(square)) !== 2) {
      return `${written}: a man captures by jumping an adjacent piece to the square right behind it`;
    }
    if (victim !== proposed.captured[i]) return `${written}: ${jump} captures ${squareName(victim)}, not ${squareName(proposed.captured[i])} as written`;
    jumped[victim] = 1;
    const last = i === proposed.landings.length - 1;
    if (king && !canCaptureFrom(cells, jumped, landing, true, colour)) {
      const better = landingsBeyond(cells, square, direction, victim).find((s) => canCaptureFrom(cells, jumped, s, true, colour));
      if (better !== undefined) {
        return `${written}: the king must land where the capture continues (${squareName(better)}, not ${squareName(landing)})`;
      }
    }
    king = king || rowOf(landing) === promotionRow(colour);
    if (last && canCaptureFrom(cells, jumped, landing, king, colour)) {
      const continuation = continuationFrom(position, proposed, i);
      return `${written}: the capture must continue${continuation ? `: ${continuation} available` : ''}`;
    }
    square = landing;
  }
  return `${written} is not a legal move`;
}

function landingsBeyond(cells: Uint8Array, from: Square, direction: number, victim: Square): Square[] {
  const ray = RAYS[from][direction];
  const result: Square[] = [];
  for (let i = ray.indexOf(victim) + 1; i < ray.length && cells[ray[i]] === EMPTY; i++) result.push(ray[i]);
  return result;
}

/** A legal sequence that begins like the proposed one and goes further, in notation. */
function continuationFrom(position: Position, proposed: ProposedMove, upTo: number): string | null {
  const prefix = proposed.landings.slice(0, upTo + 1);
  const longer = capturesFrom(position, proposed.from).find((move) => sameSquares(move.landings.slice(0, prefix.length), prefix));
  return longer ? moveNotation(longer) : null;
}

function illegal(reason: string): Judgement {
  return { legal: false, reason };
}
