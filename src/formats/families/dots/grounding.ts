/**
 * The grounding end of a Dots game: the player who grounds gives up every live dot of theirs that
 * is not grounded (the rules engine's `ungroundedDots`, which the server's last-player end shares),
 * and each such dot counts as captured by the opponent.
 */
export { ungroundedDots } from '../../../rules/dots/index.js';

/** Scores after `seat` grounds in a two-seat game: the opponent gains one per ungrounded dot. */
export function scoresAfterGrounding(scores: readonly number[], seat: number, given: number): number[] {
  return scores.map((score, s) => (s === seat ? score : score + given));
}
