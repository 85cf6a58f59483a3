import { calendarDate } from '../go-analysis/index.js';
import type { GoColor, GoWin } from '../go-analysis/index.js';

/*
 * Root property values of Go SGF games as real programs write them: komi, result, date.
 */

export interface Komi {
  readonly value: number;
  /** `hundredths` for the Fox server's integer komi (`KM[650]` = 6.5), else `points`. */
  readonly form: 'points' | 'hundredths';
}

/**
 * `KM` as a number. The Fox client (YuanYu) writes komi in hundredths of a point without a decimal
 * point: `KM[650]` is 6.5, `KM[750]` 7.5, `KM[375]` 3.75. Read so: an integer without a decimal point
 * whose size is at least 100 and that is a multiple of 25 (a quarter point). No real komi is 100
 * points or more, so nothing else is read this way. Anything that is not a number → null.
 */
export function parseKomi(text: string): Komi | null {
  const t = text.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t)) return null;
  const value = Number(t);
  if (/^[+-]?\d+$/.test(t) && Math.abs(value) >= 100 && value % 25 === 0) return { value: value / 100, form: 'hundredths' };
  return { value: value === 0 ? 0 : value, form: 'points' };
}

/** A recorded result (`RE`) understood. */
export type SgfResult =
  | { readonly kind: 'win'; readonly winner: GoColor; readonly win: GoWin }
  | { readonly kind: 'draw' }
  /** `Void` (no result), `?` (unknown), or text that is none of the forms read here. */
  | { readonly kind: 'none'; readonly reason: 'void' | 'unknown' | 'unrecognised' };

/**
 * `RE` as FF[4] defines it, plus forms programs write: `B+R`/`B+Resign`, `W+T`/`W+Time`/`W+Time Over`,
 * `B+F`/`B+Forfeit`, `W+2.5` (a margin, text after it ignored), `B+` (no margin), `W+Illegal`
 * (any other reason, kept as written), `0`/`Draw`/`Jigo`, `Void`, `?`, and GNU Go's NNGS
 * `White resigns.`/`Black resigns.` Letters are read in any case.
 */
export function parseResult(text: string): SgfResult {
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
 * The first date of `DT` as `YYYY-MM-DD`: FF[4] writes `YYYY-MM-DD` and lists further days after
 * commas (`2002-10-16,17`); programs also write `YYYY/MM/DD` with a time after it (NNGS). A date
 * without a day (`2002-10`), another order, or a day the calendar lacks → null.
 */
export function firstDate(text: string): string | null {
  const first = text.split(',')[0].trim();
  const match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?![\d])/.exec(first);
  if (!match) return null;
  return calendarDate(`${match[1]}-${match[2].padStart(2, '0')}-${match[3].padStart(2, '0')}`);
}
