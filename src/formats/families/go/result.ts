import type { GameEnding, PlayerOutcome } from '../../plugin.js';
import { unfinishedOutcomes } from '../outcome.js';

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

/** How a recorded Go result came about, and the margin where it gives one, in the facts' terms. */
export function goEnding(result: { readonly win: GoWin } | 'draw' | null): { ending: GameEnding | null; margin: number | null } {
  if (result === null) return { ending: null, margin: null };
  if (result === 'draw') return { ending: 'draw', margin: 0 };
  const { win } = result;
  if (win.how === 'score') return { ending: 'score', margin: win.margin };
  return { ending: win.how === 'other' ? 'unknown' : win.how, margin: null };
}

/** A recorded Go result (SGF's `RE`, GoFans' `<result>`) understood. */
export type GoResult =
  | { readonly kind: 'win'; readonly winner: GoColor; readonly win: GoWin }
  | { readonly kind: 'draw' }
  /** `Void` (no result), `?` (unknown), or text that is none of the forms read here. */
  | { readonly kind: 'none'; readonly reason: 'void' | 'unknown' | 'unrecognised' };

/**
 * A result in SGF's `RE` notation as FF[4] defines it, plus forms programs write: `B+R`/`B+Resign`,
 * `W+T`/`W+Time`/`W+Time Over`, `B+F`/`B+Forfeit`, `W+2.5` (a margin, text after it ignored), `B+`
 * (no margin), `W+Illegal` (any other reason, kept as written), `0`/`Draw`/`Jigo`, `Void`, `?`, and
 * GNU Go's NNGS `White resigns.`/`Black resigns.` Letters are read in any case.
 */
export function parseGoResult(text: string): GoResult {
  const t = text.trim();
  if (/^(0|draw|jigo)$/i.test(t)) return { kind: 'draw' };
  if (/^void$/i.test(t)) return { kind: 'none', reason: 'void' };
  if (t === '?') return { kind: 'none', reason: 'unknown' };
  const resigns = /^(black|white) resigns\b/i.exec(t);
  if (resigns) return { kind: 'win', winner: resigns[1].toLowerCase() === 'black' ? 'white' : 'black', win: { how: 'resignation' } };
  const won = /^([BW])\s*\+\s*(.*)$/is.exec(t);
  if (!won) return { kind: 'none', reason: 'unrecognised' };
  const winner: GoColor = won[1].toUpperCase() === 'B' ? 'black' : 'white';
  const rest = won[2].trim();
  const margin = /^(\d+(?:\.\d+)?|\.\d+)(?![\d.])/.exec(rest);
  if (margin) return { kind: 'win', winner, win: { how: 'score', margin: Number(margin[1]) } };
  if (rest === '') return { kind: 'win', winner, win: { how: 'unknown' } };
  if (/^r(esign(ation|ed)?)?$/i.test(rest)) return { kind: 'win', winner, win: { how: 'resignation' } };
  if (/^t(ime)?(\s*over|out)?$/i.test(rest) || /^timeout$/i.test(rest)) return { kind: 'win', winner, win: { how: 'time' } };
  if (/^f(orfeit)?$/i.test(rest)) return { kind: 'win', winner, win: { how: 'forfeit' } };
  return { kind: 'win', winner, win: { how: 'other', reason: rest } };
}

/**
 * A result written in FF[4]'s `RE` notation, the inverse of {@link parseGoResult}: `B+R`, `W+T`,
 * `B+F`, `W+2.5`, `B+`, `W+Illegal`, `0`, `Void`, `?`. Unrecognised text has no notation: null.
 */
export function goResultNotation(result: GoResult): string | null {
  if (result.kind === 'draw') return '0';
  if (result.kind === 'none') return result.reason === 'void' ? 'Void' : result.reason === 'unknown' ? '?' : null;
  const side = result.winner === 'black' ? 'B+' : 'W+';
  const win = result.win;
  switch (win.how) {
    case 'score':
      return `${side}${win.margin}`;
    case 'resignation':
      return `${side}R`;
    case 'time':
      return `${side}T`;
    case 'forfeit':
      return `${side}F`;
    case 'unknown':
      return side;
    case 'other':
      return `${side}${win.reason}`;
  }
}
