import { IllegalJudgement, ProposedMove, judgeMove } from '../../../rules/checkers/judge-move.js';
import { legalMoves } from '../../../rules/checkers/legal-moves.js';
import { Move, isCapture } from '../../../rules/checkers/move.js';
import { EMPTY } from '../../../rules/checkers/pieces.js';
import type { Position } from '../../../rules/checkers/position.js';
import { RAYS, directionBetween } from '../../../rules/checkers/rays.js';
import type { Square } from '../../../rules/checkers/squares.js';
import { describeIllegal, moveNotation } from '../../families/checkers/notation.js';
import type { WrittenMove } from './notation.js';

/**
 * Which legal move a PDN move names. PDN writes a capture by its start and end, with any of the
 * landings between where needed (`c3:g7`, `c3:e5:g7`), and never the captured pieces; the legal
 * moves of the position that start and end there, capture when it captures, and pass through the
 * written landings in order are the candidates.
 */
export type Match =
  | { readonly kind: 'move'; readonly move: Move; /** Other routes fit too, all to the same position. */ readonly routes: number }
  | { readonly kind: 'ambiguous'; readonly moves: readonly Move[] }
  | { readonly kind: 'illegal'; readonly judgement: IllegalJudgement; /** Why, in words. */ readonly detail: string };

export function matchMove(position: Position, written: WrittenMove, token: string): Match {
  const candidates = legalMoves(position).filter((move) => fits(move, written));
  if (candidates.length === 0) return { kind: 'illegal', ...explain(position, written, token) };
  const first = candidates[0];
  const same = candidates.every((move) => sameOutcome(move, first));
  return same ? { kind: 'move', move: first, routes: candidates.length } : { kind: 'ambiguous', moves: candidates };
}

function fits(move: Move, written: WrittenMove): boolean {
  const squares = written.squares;
  if (move.from !== squares[0] || isCapture(move) !== written.capture) return false;
  const landings = move.landings;
  if (landings[landings.length - 1] !== squares[squares.length - 1]) return false;
  // The written squares between start and end are some of the landings, in order.
  let k = 0;
  for (const square of squares.slice(1, -1)) {
    while (k < landings.length - 1 && landings[k] !== square) k++;
    if (k >= landings.length - 1) return false;
    k++;
  }
  return true;
}

/** Two routes that take the same pieces and crown alike leave the same position. */
function sameOutcome(a: Move, b: Move): boolean {
  if (a.promotes !== b.promotes || a.captured.length !== b.captured.length) return false;
  const taken = new Set(a.captured);
  return b.captured.every((square) => taken.has(square));
}

/**
 * Why no legal move fits: the engine judges the move as written, each jump taking the one piece
 * between its squares. A capture written by its ends only that is no single jump fits no legal
 * sequence: `no_such_capture`, in words that name the legal captures.
 */
function explain(position: Position, written: WrittenMove, token: string): { judgement: IllegalJudgement; detail: string } {
  const [from, ...landings] = written.squares;
  const proposed: ProposedMove = { from, landings, captured: written.capture ? landings.map((to, i) => jumpedPiece(position, i === 0 ? from : landings[i - 1], to)) : [] };
  const judgement = judgeMove(position, proposed);
  if (!judgement.legal) {
    const vague = written.capture && landings.length === 1 && (judgement.reason === 'not_diagonal' || judgement.reason === 'jumps_several');
    if (!vague) return { judgement, detail: describeIllegal(judgement) };
  }
  const captures = legalMoves(position).filter(isCapture).map(moveNotation);
  const text = written.squares.length === 2 ? 'no legal capture goes' : 'no legal capture passes';
  return {
    judgement: { legal: false, reason: 'no_such_capture', proposed },
    detail: `${token}: ${text} from the first to the last square written (${captures.length > 0 ? `legal: ${captures.join(', ')}` : 'no capture is possible'})`,
  };
}

/** The first piece on the diagonal between two squares (or the far square when there is none, for the engine to refuse). */
function jumpedPiece(position: Position, from: Square, to: Square): Square {
  const direction = directionBetween(from, to);
  if (direction < 0) return to;
  for (const square of RAYS[from][direction]) {
    if (square === to) break;
    if (position.at(square) !== EMPTY) return square;
  }
  return to;
}
