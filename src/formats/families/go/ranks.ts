/*
 * Go ranks as files write them, read onto one integer scale, and players' numeric ratings.
 *
 * The scale: 30k = -29 … 1k = 0, then 1d = 1 … 9d = 9 (amateur dan), then 1p = 10 … 9p = 18
 * (professional dan). A kyu rank `n` is `1 - n`, a dan rank `n` is `n`, a pro rank `n` is `9 + n`.
 *
 * The forms read (after Unicode NFKC, so full-width digits and letters read as ASCII; case does not
 * count; spaces or a hyphen may stand between the number and its word):
 * - kyu, 1 to 30: `3k`, `3 kyu`, `3 kyū`, `15級`, `15级`, `10급`;
 * - amateur dan, 1 to 9: `5d`, `5 dan`, `2段`, `4단`, and `初段` (1d);
 * - pro dan, 1 to 9: `1p`, `9 pro`, `9プロ`, a dan word followed by `p`, `pro`, `プロ` or `프로`
 *   (`9 dan pro`, `9段プロ`), or `プロ`/`프로` before the rank (`プロ9段`);
 * - one or more trailing `*` or `?` (a server's mark of an uncertain rank) are dropped: `5d?` is 5d.
 * `段`/`단` alone is amateur dan (a server for professionals writes `9段` too; nothing tells them apart).
 * Anything else — a number alone, a number out of range, `0k`, a leading zero, other words — is no rank.
 *
 * A rating is a number alone: an optional `-`, one to six digits, and up to four decimals
 * (`2100`, `1850.5`), with the same trailing `*` or `?` dropped (`1500?`). A rating is never a rank.
 */

/** The lowest rank of the scale, 30k. */
export const LOWEST_RANK = -29;
/** The highest rank of the scale, 9p. */
export const HIGHEST_RANK = 18;

const KYU = new Set(['k', 'kyu', 'kyū', '級', '级', '급']);
const DAN = new Set(['d', 'dan', '段', '단']);
const PRO = new Set(['p', 'pro', 'プロ', '프로']);

/** The number, its word, and a pro word after it; or a pro word before a dan rank. */
const SUFFIXED = /^([1-9]\d?|初)[\s-]*([a-zū]+|級|级|급|段|단|プロ|프로)(?:[\s-]*(p|pro|プロ|프로))?$/u;
const PREFIXED = /^(?:プロ|프로)[\s-]*([1-9])[\s-]*(d|dan|段|단)$/u;
const RATING = /^-?\d{1,6}(?:\.\d{1,4})?$/;

/** A written value as both readers take it: NFKC, trimmed, lower case, trailing uncertainty marks dropped. */
function cleaned(written: string): string {
  return written.normalize('NFKC').trim().toLowerCase().replace(/[*?]+$/, '').trim();
}

/** A rank as written (`5d`, `3 kyu`, `2段`, `9p`…) on the scale from -29 (30k) to 18 (9p), or null when no form matches. */
export function goRankValue(written: string): number | null {
  const text = cleaned(written);
  const prefixed = PREFIXED.exec(text);
  if (prefixed) return 9 + Number(prefixed[1]);
  const match = SUFFIXED.exec(text);
  if (!match) return null;
  const [, number, word, pro] = match;
  if (number === '初' && word !== '段') return null;
  const n = number === '初' ? 1 : Number(number);
  if (pro !== undefined) return DAN.has(word) && n <= 9 ? 9 + n : null;
  if (KYU.has(word)) return n <= 30 ? 1 - n : null;
  if (DAN.has(word)) return n <= 9 ? n : null;
  if (PRO.has(word)) return n <= 9 ? 9 + n : null;
  return null;
}

/** A value of the scale as the archive writes it: `3k`, `5d`, `1p`. A value off the scale is a RangeError. */
export function rankText(value: number): string {
  if (!Number.isInteger(value) || value < LOWEST_RANK || value > HIGHEST_RANK) throw new RangeError(`${value} is no rank: the scale goes from ${LOWEST_RANK} (30k) to ${HIGHEST_RANK} (9p)`);
  if (value <= 0) return `${1 - value}k`;
  if (value <= 9) return `${value}d`;
  return `${value - 9}p`;
}

/** A numeric rating as written (`2100`, `1850.5`), or null when the text is not a number alone. */
export function ratingValue(written: string): number | null {
  const text = cleaned(written);
  return RATING.test(text) ? Number(text) : null;
}
