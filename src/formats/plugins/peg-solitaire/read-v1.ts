import { Cell, MoveMode, StoneColour, lockedCell, slotCell } from '../../../rules/peg-solitaire/board.js';
import { FormatError } from '../../../core/errors.js';
import { ReadLimits, boardExceeded, checkLineLengths } from '../../../core/limits.js';
import { locate } from '../../text/decode.js';
import type { ParsedBoardFile } from './model.js';

const STONES_V1: Readonly<Record<string, StoneColour | null>> = { '3': 'red', '2': 'yellow', '1': 'green', E: null };

/**
 * Reads a version-1 board (2009) as the original program does: every CR and LF is removed first, so
 * line breaks mean nothing; the header is `1`, `D`|`N`, `~`; the width is the number of elements before
 * the single `!`; `>` marks the next element (a slot) as a target; `X` locked, `*` half-width locked.
 * Letters are case-sensitive and spaces are not allowed. Line lengths and the board's size are
 * checked before anything is built from the text.
 */
export function parseV1(text: string, limits: ReadLimits): ParsedBoardFile {
  checkLineLengths(text, limits);
  checkV1Board(text, limits);
  const fail = (message: string, offset: number): never => {
    throw FormatError.at(message, locate(text, offset));
  };
  // Offsets (into `text`) of the characters that count: everything but CR and LF.
  const significant: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '\r' && c !== '\n') significant.push(i);
  }
  const charAt = (k: number): string | undefined => (k < significant.length ? text[significant[k]] : undefined);
  const offsetOf = (k: number): number => (k < significant.length ? significant[k] : text.length);

  if (charAt(0) !== '1') fail('version 1 board: the header must start with "1"', offsetOf(0));
  const modeChar = charAt(1);
  if (modeChar !== 'D' && modeChar !== 'N') fail('version 1 board: the second header item must be "D" (diagonal moves) or "N" (no diagonal moves)', offsetOf(1));
  if (charAt(2) !== '~') fail('version 1 board: the header must end with "~"', offsetOf(2));
  const mode: MoveMode = modeChar === 'D' ? 'diagonal' : 'normal';
  const headerEnd = offsetOf(2) + 1;

  const cells: Cell[] = [];
  let width = -1;
  let targetPending = -1;
  for (let k = 3; k < significant.length; k++) {
    const c = text[significant[k]];
    const offset = significant[k];
    if (c === '!') {
      if (width >= 0) fail('version 1 board: a second "!" (there must be exactly one, after the first row)', offset);
      if (targetPending >= 0) fail('version 1 board: ">" must be followed by a slot (E, 1, 2 or 3), not by "!"', targetPending);
      if (cells.length === 0) fail('version 1 board: "!" before any element (the first row is empty)', offset);
      width = cells.length;
    } else if (c === '>') {
      if (targetPending >= 0) fail('version 1 board: ">" must be followed by a slot (E, 1, 2 or 3), not by ">"', targetPending);
      targetPending = offset;
    } else if (c === 'X' || c === '*') {
      if (targetPending >= 0) fail(`version 1 board: ">" must be followed by a slot (E, 1, 2 or 3), not by the locked field "${c}"`, targetPending);
      cells.push(lockedCell(c === '*'));
    } else if (c in STONES_V1) {
      cells.push(slotCell(STONES_V1[c], targetPending >= 0));
      targetPending = -1;
    } else {
      fail(`version 1 board: unknown element "${printable(c)}" (expected X, *, 1, 2, 3, E, > or !)`, offset);
    }
  }
  if (targetPending >= 0) fail('version 1 board: ">" at the end of the file (it must be followed by a slot)', targetPending);
  if (width < 0) fail('version 1 board: no "!" after the first row, so the width is unknown', text.length);
  const after = cells.length - width;
  if (after % width !== 0) {
    fail(
      `version 1 board: ${after} elements after "!" do not fill rows of ${width} (the first row's width); ` +
        `the last row has ${after % width}`,
      text.length,
    );
  }
  const height = cells.length / width;
  const bodyStart = skipLineEnd(text, headerEnd);
  return {
    formatVersion: 1,
    board: { mode, width, height, cells, rowShifts: new Array<number>(height).fill(0) },
    header: text.slice(0, headerEnd),
    body: text.slice(bodyStart),
    dotReading: null,
  };
}

const CELLS_V1 = new Set(['X', '*', 'E', '1', '2', '3']);

/**
 * Counts the cells of a version-1 board without reading it: the width is the number of cells before
 * the `!`, the height the cells over the width (rounded up). A board wider or taller than
 * MAX_BOARD_SIDE is refused at the first cell past the bound; malformed text is left to the parser.
 */
function checkV1Board(text: string, limits: ReadLimits): void {
  const max = limits.maxBoardSide;
  let significant = 0;
  let cells = 0;
  let width = -1;
  let wideAt = -1;
  let tallAt = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\r' || c === '\n') continue;
    if (significant++ < 3) continue; // the header 1D~ / 1N~
    if (c === '!' && width < 0) width = cells;
    if (!CELLS_V1.has(c)) continue;
    if (width < 0 && cells === max) wideAt = i;
    if (width > 0 && tallAt < 0 && cells === width * max) tallAt = i;
    cells++;
  }
  const columns = width < 0 ? cells : width;
  const rows = width > 0 ? Math.ceil(cells / width) : 1;
  if (wideAt >= 0) throw boardExceeded(limits, columns, rows, locate(text, wideAt));
  if (tallAt >= 0) throw boardExceeded(limits, columns, rows, locate(text, tallAt));
}

function skipLineEnd(text: string, offset: number): number {
  if (text[offset] === '\r' && text[offset + 1] === '\n') return offset + 2;
  if (text[offset] === '\r' || text[offset] === '\n') return offset + 1;
  return offset;
}

export function printable(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f ? `U+${code.toString(16).padStart(4, '0').toUpperCase()}` : c;
}
