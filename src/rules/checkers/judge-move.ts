import { capturesFrom, canCaptureFrom, hasCapture } from './captures.js';
import type { CheckersIllegal } from './illegal.js';
import { Move, moveNotation, sameSquares } from './move.js';
import { describeGameOver, gameOver } from './outcome.js';
import { EMPTY, Piece, colourOf, describePiece, isKing, promotionRow } from './pieces.js';
import type { Position } from './position.js';
import { quietMovesFrom } from './quiet-moves.js';
import { RAYS, directionBetween } from './rays.js';
import { SQUARE_COUNT, Square, rowOf, squareName } from './squares.js';
import type { Refused } from '../refusal.js';

/**
 * A move as a record states it: where the piece starts, where it stops, and (for captures) which
 * squares it says were captured, one per landing.
 */
export interface ProposedMove {
  readonly from: Square;
  readonly landings: readonly Square[];
  readonly captured: readonly Square[];
}

/** A refused move: the rule it breaks, and the same in words a player would use. */
export type IllegalJudgement = Refused<CheckersIllegal> & {
  /** E.g. `capture was mandatory: c5:e3 available`. */
  readonly detail: string;
};

export type Judgement = { readonly legal: true; readonly move: Move } | IllegalJudgement;

/**
 * Whether a proposed move is legal in the position; when it is not, the first rule it breaks (a
 * {@link CheckersIllegal} code) and why in words. Only the proposed piece's moves are generated,
 * plus a cheap check whether any capture exists, so replaying a game stays fast. When the side to
 * move has no legal move at all, every move is refused as `game_over`.
 */
export function judgeMove(position: Position, proposed: ProposedMove): Judgement {
  const judgement = judgeProposed(position, proposed);
  if (judgement.legal) return judgement;
  const over = gameOver(position);
  return over ? illegal('game_over', `the game is already over (${describeGameOver(over)})`) : judgement;
}

function judgeProposed(position: Position, proposed: ProposedMove): Judgement {
  const piece = position.at(proposed.from);
  const side = position.toMove;
  if (piece === EMPTY) return illegal('no_piece', `there is no piece on ${squareName(proposed.from)}`);
  if (colourOf(piece) !== side) {
    return illegal('opponent_piece', `${squareName(proposed.from)} holds a ${describePiece(piece)}, but ${side} is to move`);
  }
  if (proposed.captured.length === 0) return judgeQuiet(position, proposed, piece);
  if (proposed.captured.length !== proposed.landings.length) return illegal('captures_per_landing', 'a capture needs one captured piece per landing');
  const match = capturesFrom(position, proposed.from).find((move) => sameSquares(move.landings, proposed.landings));
  if (match && sameSquares(match.captured, proposed.captured)) return { legal: true, move: match };
  return explainCapture(position, proposed, piece, match);
}

function judgeQuiet(position: Position, proposed: ProposedMove, piece: Piece): Judgement {
  const written = `${squareName(proposed.from)}-${proposed.landings.map(squareName).join('-')}`;
  if (proposed.landings.length !== 1) return illegal('several_destinations', `${written}: a quiet move has one destination`);
  // The cheap test first: naming an available capture needs a full search, worth it only for an illegal move.
  const capture = hasCapture(position) ? firstCapture(position) : null;
  if (capture) return illegal('must_capture', `capture was mandatory: ${moveNotation(capture)} available`);
  const to = proposed.landings[0];
  const match = quietMovesFrom(position, proposed.from).find((move) => move.landings[0] === to);
  if (match) return { legal: true, move: match };
  const [reason, why] = explainQuiet(position, proposed.from, to, piece);
  return illegal(reason, `${written} is not a legal move: ${why}`);
}

function explainQuiet(position: Position, from: Square, to: Square, piece: Piece): [CheckersIllegal, string] {
  const direction = directionBetween(from, to);
  if (direction < 0) return ['not_diagonal', 'the squares are not on one diagonal'];
  if (position.at(to) !== EMPTY) return ['occupied', `${squareName(to)} is occupied`];
  if (isKing(piece)) return ['blocked', 'a piece stands in the way'];
  const rowStep = rowOf(to) - rowOf(from);
  if (Math.abs(rowStep) !== 1) return ['man_too_far', 'a man moves one square'];
  return ['man_backwards', 'a man moves only forwards'];
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
function explainCapture(position: Position, proposed: ProposedMove, piece: Piece, match: Move | undefined): IllegalJudgement {
  const colour = colourOf(piece);
  const written = [proposed.from, ...proposed.landings].map(squareName).join(':');
  const broken = (reason: CheckersIllegal, why: string): IllegalJudgement => illegal(reason, `${written}: ${why}`);
  if (match) {
    const at = match.captured.findIndex((square, i) => square !== proposed.captured[i]);
    return illegal('wrong_captured', `${written} captures ${squareName(match.captured[at])}, not ${squareName(proposed.captured[at])} as written`);
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
    if (direction < 0) return broken('not_diagonal', `${jump} is not along a diagonal`);
    if (cells[landing] !== EMPTY) return broken('occupied', `${squareName(landing)} is occupied`);
    const between: Square[] = [];
    for (const s of RAYS[square][direction]) {
      if (s === landing) break;
      if (cells[s] !== EMPTY) between.push(s);
    }
    if (between.length === 0) return broken('jumps_nothing', `${jump} jumps no piece`);
    if (between.length > 1) return broken('jumps_several', `${jump} jumps more than one piece`);
    const victim = between[0];
    if (jumped[victim]) {
      return broken('jumped_twice', `${squareName(victim)} would be jumped twice (a captured piece stays on the board until the move ends)`);
    }
    if (colourOf(cells[victim] as Piece) === colour) return broken('jumps_own_piece', `${jump} jumps its own piece on ${squareName(victim)}`);
    if (!king && Math.abs(rowOf(landing) - rowOf(square)) !== 2) {
      return broken('man_jump_distance', 'a man captures by jumping an adjacent piece to the square right behind it');
    }
    if (victim !== proposed.captured[i]) {
      return broken('wrong_captured', `${jump} captures ${squareName(victim)}, not ${squareName(proposed.captured[i])} as written`);
    }
    jumped[victim] = 1;
    const last = i === proposed.landings.length - 1;
    if (king && !canCaptureFrom(cells, jumped, landing, true, colour)) {
      const better = landingsBeyond(cells, square, direction, victim).find((s) => canCaptureFrom(cells, jumped, s, true, colour));
      if (better !== undefined) {
        return broken('king_landing', `the king must land where the capture continues (${squareName(better)}, not ${squareName(landing)})`);
      }
    }
    king = king || rowOf(landing) === promotionRow(colour);
    if (last && canCaptureFrom(cells, jumped, landing, king, colour)) {
      const continuation = continuationFrom(position, proposed, i);
      return broken('must_continue', `the capture must continue${continuation ? `: ${continuation} available` : ''}`);
    }
    square = landing;
  }
  return illegal('no_such_capture', `${written} is not a legal move`);
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

function illegal(reason: CheckersIllegal, detail: string): IllegalJudgement {
  return { legal: false, reason, detail };
}
