/**
 * `YYYY-MM-DD` (an `xs:date`/`xs:dateTime` may follow it with a time or zone) or the German
 * `D.M.YYYY` (GoFans' original is German) → `YYYY-MM-DD`; anything else, or a day the calendar
 * does not have (2023-02-29), → null. Nothing is guessed from other orders.
 */
export function calendarDate(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:$|T|Z|[+-]\d{2}:\d{2}$)/.exec(text);
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  const [year, month, day] = iso ? [iso[1], iso[2], iso[3]] : german ? [german[3], german[2], german[1]] : [];
  if (year === undefined) return null;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1) return null;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  if (d > days) return null;
  return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
