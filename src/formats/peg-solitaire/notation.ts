import type { Point } from '../../rules/peg-solitaire/board.js';

/**
 * Slot names in the replay: column letters from the left (`a`…`z`, then `aa`, `ab`…) and the row number
 * counted from the top of the file, both over the board matrix (locked cells included), e.g. `d4`.
 */
export function slotName(p: Point): string {
  let column = '';
  let x = p.x + 1;
  while (x > 0) {
    const digit = (x - 1) % 26;
    column = String.fromCharCode(97 + digit) + column;
    x = Math.floor((x - 1) / 26);
  }
  return `${column}${p.y + 1}`;
}

/** A jump as `from-to`, e.g. `d2-d4`. */
export function jumpName(from: Point, to: Point): string {
  return `${slotName(from)}-${slotName(to)}`;
}
