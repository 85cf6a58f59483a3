import type { Surround } from '../../../rules/dots/index.js';
import { cellCode } from './notation.js';

/**
 * Writes the surround record of one move: `#chain[@chain...]#captured#empty#first@second#`.
 * Several surrounds of one move share one record: their chains are joined by `@`, their captured
 * dots and empty points are concatenated in the same order.
 */
export function recordText(surrounds: readonly Surround[], score: readonly number[]): string {
  const chains = surrounds.map((s) => s.chain.map(cellCode).join('')).join('@');
  const captured = surrounds.map((s) => s.captured.map(cellCode).join('')).join('');
  const empty = surrounds.map((s) => s.empty.map(cellCode).join('')).join('');
  return `#${chains}#${captured}#${empty}#${score[0]}@${score[1]}#`;
}
