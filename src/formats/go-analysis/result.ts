import type { PlayerOutcome } from '../plugin.js';
import { unfinishedOutcomes } from '../problems/outcome.js';

export type GoColor = 'black' | 'white';

/** How a won Go game was decided. */
export type GoWin =
  | { readonly how: 'score'; readonly margin: number; readonly basis?: string }
  | { readonly how: 'resignation' | 'time' | 'forfeit' | 'unknown' }
  | { readonly how: 'other'; readonly reason: string };

/** A Go result in words: `black wins by resignation`, `white wins by 2.5`, `white wins (Illegal)`… */
export function winText(winner: GoColor, win: GoWin): string {
  switch (win.how) {
    case 'score':
      return `${winner} wins by ${win.margin}${win.basis ? ` (${win.basis})` : ''}`;
    case 'resignation':
      return `${winner} wins by resignation`;
    case 'time':
      return `${winner} wins on time`;
    case 'forfeit':
      return `${winner} wins by forfeit`;
    case 'unknown':
      return `${winner} wins`;
    case 'other':
      return `${winner} wins (${win.reason})`;
  }
}

/** A drawn game (jigo), with what the draw was counted on when known. */
export function drawText(basis?: string): string {
  return basis ? `jigo (${basis})` : 'jigo';
}

/**
 * Each seat's outcome for a recorded result: the winner's colour `won`, the other `lost`; a draw
 * `drawn` for both colours; no result `unfinished`. Seats without a colour are `unfinished`.
 */
export function outcomesForResult(colors: readonly (GoColor | null)[], result: { readonly winner: GoColor } | 'draw' | null): PlayerOutcome[] {
  if (result === null) return unfinishedOutcomes(colors.length);
  return colors.map((color) => (color === null ? 'unfinished' : result === 'draw' ? 'drawn' : color === result.winner ? 'won' : 'lost'));
}
