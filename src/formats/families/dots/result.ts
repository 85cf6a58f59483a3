/**
 * The result of a Dots game in words, shared by every Dots format: who ended it and how, then the
 * score that decides it (`red ended the game; blue wins 29:8`, `black grounded; draw 3:3`).
 */

/** `red wins 3:1`, `blue wins 29:8` (the winner's score first), `draw 2:2`; two seats. */
export function dotsScoreText(colours: readonly string[], scores: readonly number[]): string {
  const [first, second] = scores;
  if (first === second) return `draw ${first}:${second}`;
  return first > second ? `${colours[0]} wins ${first}:${second}` : `${colours[1]} wins ${second}:${first}`;
}

/** How a game of two seats ended, as a format records it. */
export type DotsEnding =
  /** A player stopped placing dots; the other played on and the captures decide (VK `0f`/`0s`). */
  | { readonly kind: 'ended'; readonly seat: number }
  /** A player grounded: their dots cut off from the edge went to the opponent, then the captures decide. */
  | { readonly kind: 'grounded'; readonly seat: number }
  /** A player resigned, or lost on time: the other won whatever the captures. */
  | { readonly kind: 'resigned' | 'time'; readonly seat: number };

export function dotsResultText(colours: readonly string[], ending: DotsEnding, scores: readonly number[]): string {
  const who = colours[ending.seat];
  switch (ending.kind) {
    case 'ended':
      return `${who} ended the game; ${dotsScoreText(colours, scores)}`;
    case 'grounded':
      return `${who} grounded; ${dotsScoreText(colours, scores)}`;
    case 'resigned':
      return `${who} resigned`;
    case 'time':
      return `${who} lost on time`;
  }
}
