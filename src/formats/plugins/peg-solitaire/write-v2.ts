import type { Board, Cell } from '../../../rules/peg-solitaire/board.js';

/**
 * Writes a board in canonical version-2 form, the form the current program reads: `Version 2`,
 * `Mode: Normal|Diagonal`, one row per line with the cells separated by spaces, CRLF line ends (the
 * program's own files use them).
 *
 * There is no half-width cell in that form, so a half-width locked cell (version 1 `*`, or a dot read
 * as a cell) is written as a full locked cell `*`: the matrix, and so the game, stays the same. To keep
 * the drawing, the row is shifted back by half a cell for each half-width cell before its first
 * full-width cell (trailing dots); half-width cells further right cannot be expressed and only move the
 * drawing.
 */
export function writeV2(board: Board): string {
  const lines = ['Version 2', `Mode: ${board.mode === 'diagonal' ? 'Diagonal' : 'Normal'}`];
  for (let y = 0; y < board.height; y++) {
    const row = board.cells.slice(y * board.width, (y + 1) * board.width);
    const shift = (board.rowShifts[y] ?? 0) - leadingHalfCells(row);
    const elements = row.map(elementOf).join(' ');
    lines.push(shift >= 0 ? '.'.repeat(shift) + elements : `${elements} ${'.'.repeat(-shift)}`);
  }
  return lines.join('\r\n') + '\r\n';
}

function elementOf(cell: Cell): string {
  if (cell.kind === 'locked') return '*';
  const letter = cell.stone === 'red' ? 'r' : cell.stone === 'yellow' ? 'y' : cell.stone === 'green' ? 'g' : 'e';
  return cell.target ? letter.toUpperCase() : letter;
}

function leadingHalfCells(row: readonly Cell[]): number {
  let count = 0;
  while (count < row.length && row[count].kind === 'locked' && (row[count] as { halfWidth: boolean }).halfWidth) count++;
  return count;
}
