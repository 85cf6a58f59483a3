import type { DotsIllegal } from '../../../rules/dots/illegal.js';
import type { PlayerOutcome, Problem } from '../../plugin.js';
import { outcomesByScore, unfinishedOutcomes } from '../outcome.js';
import { cacheProblem } from '../problem.js';

/** Each Dots rule in words; typed by the engine's list, so a new code cannot go without its text. */
const DOTS_RULE_TEXT: Readonly<Record<DotsIllegal, string>> = {
  off_board: 'off the field',
  occupied: 'occupied',
  inside_surround: 'inside a surrounded area',
  outside_start_area: "a player's first dot outside the central start area",
};

/** An illegal dot; `who` names the move in the format's words (`red 3b`). */
export function dotsIllegalMove(reason: DotsIllegal, ply: number, who: string): Problem {
  return { code: `dots.${reason}`, ply, message: `ply ${ply} (${who}): illegal move, ${DOTS_RULE_TEXT[reason]}` };
}

/**
 * A move's written surround record against the regenerated one (both in the VK record syntax
 * `#chains#captured#empty#first@second#`, '' for none), or null when they agree. When only the
 * score at the end differs, the cached points are wrong (`cache.points`); otherwise the surrounds
 * (`cache.surrounds`).
 */
export function surroundRecordProblem(ply: number, who: string, written: string, regenerated: string): Problem | null {
  if (written === regenerated) return null;
  const at = `ply ${ply} (${who})`;
  if (regenerated === '') return cacheProblem('cache.surrounds', ply, `${at}: the file writes the surround record ${written} but the move surrounds nothing`);
  if (written === '') return cacheProblem('cache.surrounds', ply, `${at}: the move surrounds but the file writes no record (regenerated ${regenerated})`);
  if (withoutScore(written) === withoutScore(regenerated)) {
    return cacheProblem('cache.points', ply, `${at}: the surround record ${written} gives the score ${scoreOf(written)}, the replay ${scoreOf(regenerated)}`);
  }
  return cacheProblem('cache.surrounds', ply, `${at}: the file writes the surround record ${written}, the replay regenerates ${regenerated}`);
}

/** `#chain#captured#empty#` of a record, without its score. */
function withoutScore(record: string): string {
  return record.slice(0, record.lastIndexOf('#', record.length - 2) + 1);
}

function scoreOf(record: string): string {
  return record.slice(record.lastIndexOf('#', record.length - 2) + 1, -1);
}

/** A player's cached score on a board against the score the board itself gives. */
export function boardScoreProblem(player: string, declared: number, regenerated: number, source: string): Problem {
  return cacheProblem('cache.points', null, `${source} gives ${player} ${declared}, the board gives ${regenerated}`);
}

/** A point a board marks as surrounded (a captured dot or surrounded empty point) that no live dots enclose. */
export function unenclosedPointProblem(col: number, row: number): Problem {
  return cacheProblem('cache.surrounds', null, `point ${col},${row} (x,y) is marked surrounded, but no player's live dots enclose it`);
}

/**
 * Each seat's outcome in a Dots game (every Dots format): once the game has ended (a player ended
 * it, one player is left, no free point remains — each format says which it can see), the final
 * captures decide — the most captures won, the others lost, equal top scores drew ("the winner is
 * the player who surrounded more enemy dots"). A game that has not ended is `unfinished`.
 */
export function dotsOutcomes(scores: readonly number[], ended: boolean): PlayerOutcome[] {
  return ended ? outcomesByScore(scores) : unfinishedOutcomes(scores.length);
}

/**
 * The dots a move captures as the file writes its surrounds against the dots the replay captures
 * (each as a list in the format's notation, '' for none), or null when they agree: `cache.surrounds`.
 */
export function writtenChainsProblem(ply: number, who: string, written: string, regenerated: string): Problem | null {
  if (written === regenerated) return null;
  const at = `ply ${ply} (${who})`;
  const theirs = written === '' ? 'no dot' : written;
  const ours = regenerated === '' ? 'nothing' : regenerated;
  return cacheProblem('cache.surrounds', ply, `${at}: the surrounds the file writes capture ${theirs}, the replay captures ${ours}`);
}

/** A result the file states as a score (`RE[B+3]`) against the regenerated one: `cache.points`. */
export function declaredResultProblem(source: string, declared: string, regenerated: string): Problem {
  return cacheProblem('cache.points', null, `${source} gives the result ${declared}, the replayed captures give ${regenerated}`);
}
