import type { Cell } from '../../../rules/dots/index.js';

/**
 * VK Dots coordinates: one base-36 digit for the row, one for the column, 1-based
 * (`1`..`9`, `a`=10 .. `z`=35). The engine's cells are 0-based.
 */
export const LARGEST_CODED_SIDE = 35;

/** Value of a lowercase base-36 digit, or -1. */
export function digitValue(char: string): number {
  const c = char.charCodeAt(0);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 87;
  return -1;
}

export function digitChar(value: number): string {
  return value.toString(36);
}

/** The two-character code of a 0-based cell. */
export function cellCode(cell: Cell): string {
  return digitChar(cell.row + 1) + digitChar(cell.col + 1);
}
