import { calendarDate } from '../../families/go/index.js';

/*
 * Root property values of Go SGF games as real programs write them: komi, date (the result, `RE`,
 * is read by `families/go/result.ts`, since GoFans' `<result>` uses the same notation).
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
