import type { Point } from '../../../rules/peg-solitaire/board.js';

/**
 * Slot names in the replay: column letters from the left (`a`…`z`, then `aa`, `ab`…) and the row number
 * counted from the top of the file, both over the board matrix (locked cells included), e.g. `d4`.
 */
export function slotName(p: Point): string {
  return `${columnName(p.x)}${p.y + 1}`;
}

/** The letters of column `x` (0-based) in slot names. */
export function columnName(x: number): string {
  let column = '';
  let n = x + 1;
  while (n > 0) {
    const digit = (n - 1) % 26;
    column = String.fromCharCode(97 + digit) + column;
    n = Math.floor((n - 1) / 26);
  }
  return column;
}

/** A jump as `from-to`, e.g. `d2-d4`. */
export function jumpName(from: Point, to: Point): string {
  return `${slotName(from)}-${slotName(to)}`;
}
