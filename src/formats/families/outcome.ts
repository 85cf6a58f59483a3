import type { GameAnalysis, PlayerOutcome } from '../plugin.js';

/**
 * Outcomes shared by the families whose games end in a score (Go's recorded Points, Dots' captures).
 * The plugins decide whether a game is over and which score counts; this only ranks the scores.
 */

/** Every seat `unfinished`: the game has no result. */
export function unfinishedOutcomes(seats: number): PlayerOutcome[] {
  return Array.from({ length: seats }, () => 'unfinished' as const);
}

/**
 * A finished game decided by score: the single highest score won and everybody else lost; when
 * several seats share the highest score they drew (every seat below them lost). Fewer than two
 * seats cannot win or lose against anybody: `unfinished`.
 */
export function outcomesByScore(scores: readonly number[]): PlayerOutcome[] {
  if (scores.length < 2) return unfinishedOutcomes(scores.length);
  const best = Math.max(...scores);
  const top = scores.filter((s) => s === best).length;
  return scores.map((s) => (s !== best ? 'lost' : top === 1 ? 'won' : 'drawn'));
}

/**
 * How a game ended, as the explorer and the pattern search count it: the winner's colour (or
 * `seat N` for a seat without one), `draw`, or null when unknown.
 */
export function winnerOf(analysis: GameAnalysis | undefined): string | null {
  const players = analysis?.players ?? [];
  const winner = players.find((player) => player.outcome === 'won');
  if (winner) return winner.color ?? `seat ${winner.seat}`;
  return players.some((player) => player.outcome === 'drawn') ? 'draw' : null;
}
