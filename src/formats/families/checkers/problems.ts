import type { IllegalJudgement } from '../../../rules/checkers/judge-move.js';
import type { Colour } from '../../../rules/checkers/pieces.js';
import { describeIllegal } from './notation.js';
import type { Problem } from '../../plugin.js';
import { noteProblem } from '../problem.js';

/**
 * An illegal checkers move: the engine's reason as the code, and why in standard notation. `detail`
 * is the engine's refusal in words unless the format has more precise ones of its own.
 */
export function checkersIllegalMove(judgement: IllegalJudgement, ply: number, side: Colour, detail = describeIllegal(judgement)): Problem {
  return { code: `checkers.${judgement.reason}`, ply, message: `ply ${ply} (${side}): ${detail}` };
}

/** The moves after an illegal one, which a replay that stops there leaves unread. */
export function notReplayedProblem(ply: number, rest: number): Problem {
  const what = rest === 1 ? `the move after ply ${ply} was` : `the ${rest} moves after ply ${ply} were`;
  return noteProblem('note.not_replayed', ply, `${what} not replayed`);
}
