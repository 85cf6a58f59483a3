import { capturesFrom, canCaptureFrom, hasCapture } from './captures.js';
import type { CheckersIllegal } from './illegal.js';
import { Move, sameSquares } from './move.js';
import { GameOver, gameOver } from './outcome.js';
import { Colour, EMPTY, Piece, colourOf, isKing, promotionRow } from './pieces.js';
import type { Position } from './position.js';
import { quietMovesFrom } from './quiet-moves.js';
import { RAYS, directionBetween } from './rays.js';
import { SQUARE_COUNT, Square, rowOf } from './squares.js';
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

/** One leg of a proposed move, from square to square: its quiet step, or one jump of its capture. */
export interface Leg {
  readonly from: Square;
  readonly to: Square;
}

/** The rules a quiet move's one step can break. */
type StepRule = 'not_diagonal' | 'occupied' | 'blocked' | 'man_too_far' | 'man_backwards';

/** The rules one jump of a capture can break where the jump itself is all there is to show. */
type JumpRule = 'not_diagonal' | 'occupied' | 'jumps_nothing' | 'jumps_several' | 'man_jump_distance';

/** What every refusal carries: the rule broken and the move as proposed. */
interface RefusalOf<Reason extends CheckersIllegal> extends Refused<Reason> {
  readonly proposed: ProposedMove;
}

/**
 * A refused move: the rule it breaks and the facts that show it, as squares, moves and pieces. The
 * engine writes no notation; a format says it in words (the checkers formats share
 * `describeIllegal` in `src/formats/families/checkers/notation.ts`).
 *
 * `not_diagonal` and `occupied` are broken by a quiet move's `step` or by one `jump` of a capture;
 * which of the two fields the refusal has tells them apart.
 */
export type IllegalJudgement =
  /** The side to move has no legal move: how the game ended. */
  | (RefusalOf<'game_over'> & { readonly over: GameOver })
  /** `square` (the start) is empty. */
  | (RefusalOf<'no_piece'> & { readonly square: Square })
  /** `square` (the start) holds `piece`, which is not of the colour `toMove`. */
  | (RefusalOf<'opponent_piece'> & { readonly square: Square; readonly piece: Piece; readonly toMove: Colour })
  /** A quiet move while `capture` (the first one found) was available. */
  | (RefusalOf<'must_capture'> & { readonly capture: Move })
  | RefusalOf<'several_destinations'>
  /** The quiet move's one step breaks the rule. */
  | (RefusalOf<StepRule> & { readonly step: Leg })
  | RefusalOf<'captures_per_landing'>
  /** This jump of the capture breaks the rule (for `occupied`, its landing `jump.to` holds a piece). */
  | (RefusalOf<JumpRule> & { readonly jump: Leg })
  /** This jump passes over `jumped`, a piece of the mover's colour or one already captured. */
  | (RefusalOf<'jumps_own_piece' | 'jumped_twice'> & { readonly jump: Leg; readonly jumped: Square })
  /**
   * The capture takes `takes` where the record names `named`. `jump` is the jump that takes it, or
   * null when the landings are those of a legal capture and only the captured squares differ.
   */
  | (RefusalOf<'wrong_captured'> & { readonly jump: Leg | null; readonly takes: Square; readonly named: Square })
  /** The king landed on `jump.to`, where its capture stops, although landing on `better` it would continue. */
  | (RefusalOf<'king_landing'> & { readonly jump: Leg; readonly better: Square })
  /**
   * The capture stops after `jump` while the piece can still capture; `continuation` is a legal
   * sequence that begins with the same landings and goes further, or null when none is found.
   */
  | (RefusalOf<'must_continue'> & { readonly jump: Leg; readonly continuation: Move | null })
  | RefusalOf<'no_such_capture'>;

export type Judgement = { readonly legal: true; readonly move: Move } | IllegalJudgement;

/** The facts of one kind of refusal, without the `legal` and `proposed` every refusal has. */
type Facts<J = IllegalJudgement> = J extends IllegalJudgement ? Omit<J, 'legal' | 'proposed'> : never;

/**
 * Whether a proposed move is legal in the position; when it is not, the first rule it breaks (a
 * {@link CheckersIllegal} code) and the squares, moves and pieces involved. Only the proposed piece's
 * moves are generated, plus a cheap check whether any capture exists, so replaying a game stays fast.
 * When the side to move has no legal move at all, every move is refused as `game_over`.
 */
export function judgeMove(position: Position, proposed: ProposedMove): Judgement {
  const judgement = judgeProposed(position, proposed);
  if (judgement.legal) return judgement;
  const over = gameOver(position);
  return over ? refuse(proposed, { reason: 'game_over', over }) : judgement;
}

function judgeProposed(position: Position, proposed: ProposedMove): Judgement {
  const piece = position.at(proposed.from);
  const side = position.toMove;
  if (piece === EMPTY) return refuse(proposed, { reason: 'no_piece', square: proposed.from });
  if (colourOf(piece) !== side) return refuse(proposed, { reason: 'opponent_piece', square: proposed.from, piece, toMove: side });
  if (proposed.captured.length === 0) return judgeQuiet(position, proposed, piece);
  if (proposed.captured.length !== proposed.landings.length) return refuse(proposed, { reason: 'captures_per_landing' });
  const match = capturesFrom(position, proposed.from).find((move) => sameSquares(move.landings, proposed.landings));
  if (match && sameSquares(match.captured, proposed.captured)) return { legal: true, move: match };
  return explainCapture(position, proposed, piece, match);
}

function judgeQuiet(position: Position, proposed: ProposedMove, piece: Piece): Judgement {
  if (proposed.landings.length !== 1) return refuse(proposed, { reason: 'several_destinations' });
  // The cheap test first: naming an available capture needs a full search, worth it only for an illegal move.
  const capture = hasCapture(position) ? firstCapture(position) : null;
  if (capture) return refuse(proposed, { reason: 'must_capture', capture });
  const to = proposed.landings[0];
  const match = quietMovesFrom(position, proposed.from).find((move) => move.landings[0] === to);
  if (match) return { legal: true, move: match };
  return refuse(proposed, { reason: explainQuiet(position, proposed.from, to, piece), step: { from: proposed.from, to } });
}

function explainQuiet(position: Position, from: Square, to: Square, piece: Piece): StepRule {
  if (directionBetween(from, to) < 0) return 'not_diagonal';
  if (position.at(to) !== EMPTY) return 'occupied';
  if (isKing(piece)) return 'blocked';
  if (Math.abs(rowOf(to) - rowOf(from)) !== 1) return 'man_too_far';
  return 'man_backwards';
}

/** The first capture found for the side to move, to name in a refusal; null when there is none. */
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
 * Walks the proposed capture one jump at a time and finds the first rule it breaks. `match` is the
 * legal sequence with the same landings, when there is one (then only the captured squares were wrong).
 */
function explainCapture(position: Position, proposed: ProposedMove, piece: Piece, match: Move | undefined): IllegalJudgement {
  const colour = colourOf(piece);
  if (match) {
    const at = match.captured.findIndex((square, i) => square !== proposed.captured[i]);
    return refuse(proposed, { reason: 'wrong_captured', jump: null, takes: match.captured[at], named: proposed.captured[at] });
  }
  const cells = position.cells.slice();
  cells[proposed.from] = EMPTY;
  const jumped = new Uint8Array(SQUARE_COUNT);
  let king = isKing(piece);
  let square = proposed.from;
  for (let i = 0; i < proposed.landings.length; i++) {
    const landing = proposed.landings[i];
    const jump: Leg = { from: square, to: landing };
    const direction = directionBetween(square, landing);
    if (direction < 0) return refuse(proposed, { reason: 'not_diagonal', jump });
    if (cells[landing] !== EMPTY) return refuse(proposed, { reason: 'occupied', jump });
    const between: Square[] = [];
    for (const s of RAYS[square][direction]) {
      if (s === landing) break;
      if (cells[s] !== EMPTY) between.push(s);
    }
    if (between.length === 0) return refuse(proposed, { reason: 'jumps_nothing', jump });
    if (between.length > 1) return refuse(proposed, { reason: 'jumps_several', jump });
    const victim = between[0];
    if (jumped[victim]) return refuse(proposed, { reason: 'jumped_twice', jump, jumped: victim });
    if (colourOf(cells[victim] as Piece) === colour) return refuse(proposed, { reason: 'jumps_own_piece', jump, jumped: victim });
    if (!king && Math.abs(rowOf(landing) - rowOf(square)) !== 2) return refuse(proposed, { reason: 'man_jump_distance', jump });
    if (victim !== proposed.captured[i]) return refuse(proposed, { reason: 'wrong_captured', jump, takes: victim, named: proposed.captured[i] });
    jumped[victim] = 1;
    const last = i === proposed.landings.length - 1;
    if (king && !canCaptureFrom(cells, jumped, landing, true, colour)) {
      const better = landingsBeyond(cells, square, direction, victim).find((s) => canCaptureFrom(cells, jumped, s, true, colour));
      if (better !== undefined) return refuse(proposed, { reason: 'king_landing', jump, better });
    }
    king = king || rowOf(landing) === promotionRow(colour);
    if (last && canCaptureFrom(cells, jumped, landing, king, colour)) {
      return refuse(proposed, { reason: 'must_continue', jump, continuation: continuationFrom(position, proposed, i) });
    }
    square = landing;
  }
  return refuse(proposed, { reason: 'no_such_capture' });
}

function landingsBeyond(cells: Uint8Array, from: Square, direction: number, victim: Square): Square[] {
  const ray = RAYS[from][direction];
  const result: Square[] = [];
  for (let i = ray.indexOf(victim) + 1; i < ray.length && cells[ray[i]] === EMPTY; i++) result.push(ray[i]);
  return result;
}

/** A legal sequence that begins like the proposed one and goes further; null when there is none. */
function continuationFrom(position: Position, proposed: ProposedMove, upTo: number): Move | null {
  const prefix = proposed.landings.slice(0, upTo + 1);
  return capturesFrom(position, proposed.from).find((move) => sameSquares(move.landings.slice(0, prefix.length), prefix)) ?? null;
}

function refuse(proposed: ProposedMove, facts: Facts): IllegalJudgement {
  // Each member of Facts is one member of IllegalJudgement less `legal` and `proposed`, which TypeScript cannot see through the spread.
  return { legal: false, proposed, ...facts } as IllegalJudgement;
}
