import { Cell, MoveMode, StoneColour, lockedCell, slotCell } from '../../../rules/peg-solitaire/board.js';
import { FormatError } from '../../../core/errors.js';
import { ReadLimits, boardExceeded, checkLineLengths } from '../../../core/limits.js';
import { locate } from '../../text/decode.js';
import { TextLine, eachLine } from './lines.js';
import type { ParsedBoardFile } from './model.js';
import { printable } from './read-v1.js';

const STONES_V2: Readonly<Record<string, StoneColour | null>> = { r: 'red', y: 'yellow', g: 'green', e: null };

/** One row: its elements without blanks, and where its first element stands in the text. */
interface Row {
  readonly elements: string;
  readonly offset: number;
}

/**
 * Reads a version-2 board (2018 onwards) as the program does: the first two lines are `version 2` and
 * `mode: normal` / `mode: diagonal` in any case; from the third line on spaces are ignored and blank
 * lines skipped; each remaining line is one row of `*` (locked), `r`/`y`/`g` (stones), `e` (empty), upper
 * case marking a target, and `.`.
 *
 * The dot changed meaning between program revisions: the current one drops every dot and draws the row
 * shifted by (leading − trailing dots) half cells; the first version-2 one counted a dot as a half-width
 * locked cell. Real files of both exist, so the current reading is used when its rows are of equal
 * length, otherwise the first one when its rows are; otherwise the rows really differ (an error).
 *
 * Line lengths and the board's size are checked before anything is built from the text.
 */
export function parseV2(text: string, limits: ReadLimits): ParsedBoardFile {
  const fail = (message: string, offset: number): never => {
    throw FormatError.at(message, locate(text, offset));
  };
  checkLineLengths(text, limits);
  checkV2Board(text, limits);
  const lineIterator = eachLine(text);
  const nextLine = (): TextLine | undefined => {
    const step = lineIterator.next();
    return step.done ? undefined : step.value;
  };
  const versionLine = nextLine();
  if (!versionLine || normalise(versionLine.text) !== 'version 2') {
    fail('version 2 board: the first line must be "version 2"', versionLine?.start ?? 0);
  }
  const modeLine = nextLine();
  const modeText = modeLine ? normalise(modeLine.text) : '';
  if (modeText !== 'mode: normal' && modeText !== 'mode: diagonal') {
    fail('version 2 board: the second line must be "mode: normal" or "mode: diagonal"', modeLine?.start ?? text.length);
  }
  const mode: MoveMode = modeText === 'mode: diagonal' ? 'diagonal' : 'normal';

  const rows: Row[] = [];
  for (let line = nextLine(); line !== undefined; line = nextLine()) {
    let elements = '';
    let offset = -1;
    for (let i = 0; i < line.text.length; i++) {
      const char = line.text[i];
      if (char === ' ' || char === '\t') continue;
      if (char !== '.' && char !== '*' && !(char.toLowerCase() in STONES_V2)) {
        fail(`version 2 board: unknown element "${printable(char)}" (expected *, ., r, y, g or e, upper case for a target)`, line.start + i);
      }
      if (offset < 0) offset = line.start + i;
      elements += char;
    }
    if (elements.length > 0) rows.push({ elements, offset });
  }
  if (rows.length === 0) fail('version 2 board: the board has no rows', text.length);

  const shifted = rows.map(readShifted);
  let dotReading: 'shift' | 'cell';
  let cells: Cell[];
  let rowShifts: number[];
  if (sameLength(shifted.map((r) => r.cells))) {
    dotReading = 'shift';
    cells = shifted.flatMap((r) => r.cells);
    rowShifts = shifted.map((r) => r.shift);
  } else if (sameLength(rows.map((r) => r.elements))) {
    dotReading = 'cell';
    cells = rows.flatMap(readCounted);
    rowShifts = rows.map(() => 0);
  } else {
    const expected = shifted[0].cells.length;
    const bad = shifted.findIndex((r) => r.cells.length !== expected);
    fail(
      `version 2 board: this row has ${shifted[bad].cells.length} elements, the first row ${expected} ` +
        '(dots not counted; counting dots as half-width cells does not make the rows equal either)',
      rows[bad].offset,
    );
    throw new Error('unreachable');
  }
  const width = cells.length / rows.length;
  if (width === 0) fail('version 2 board: the rows hold only dots', rows[0].offset);
  // Counting dots as cells can make rows wider than the check before parsing saw.
  if (width > limits.maxBoardSide) throw boardExceeded(limits, width, rows.length, locate(text, rows[0].offset));
  return {
    formatVersion: 2,
    board: { mode, width, height: rows.length, cells, rowShifts },
    header: text.slice(0, modeLine!.start + modeLine!.text.length),
    body: text.slice(modeLine!.next),
    dotReading,
  };
}

/**
 * The board's size without reading it: rows are the non-blank lines after the two header lines,
 * the width of a row its elements other than dots (the current reading; the first reading, which
 * counts dots, is checked once chosen). Refused at the first row or element past MAX_BOARD_SIDE.
 */
function checkV2Board(text: string, limits: ReadLimits): void {
  const max = limits.maxBoardSide;
  let index = 0;
  let rows = 0;
  let width = 0;
  let wideAt = -1;
  let tallAt = -1;
  for (const line of eachLine(text)) {
    if (index++ < 2) continue;
    let cells = 0;
    let blank = true;
    for (let i = 0; i < line.text.length; i++) {
      const c = line.text[i];
      if (c === ' ' || c === '\t') continue;
      if (blank && rows === max && tallAt < 0) tallAt = line.start + i;
      blank = false;
      if (c === '.') continue;
      if (cells === max && wideAt < 0) wideAt = line.start + i;
      cells++;
    }
    if (!blank) rows++;
    width = Math.max(width, cells);
  }
  if (wideAt >= 0) throw boardExceeded(limits, width, rows, locate(text, wideAt));
  if (tallAt >= 0) throw boardExceeded(limits, width, rows, locate(text, tallAt));
}

/** Header lines are compared without regard to case or surrounding blanks. */
function normalise(line: string): string {
  return line.trim().toLowerCase();
}

function cellOf(char: string): Cell {
  if (char === '*') return lockedCell(false);
  if (char === '.') return lockedCell(true);
  return slotCell(STONES_V2[char.toLowerCase()], char !== char.toLowerCase());
}

/** Current reading: dots are removed; leading minus trailing dots is the shift in half cells. */
function readShifted(row: Row): { cells: Cell[]; shift: number } {
  const { elements } = row;
  const leading = elements.length - elements.replace(/^\.+/, '').length;
  if (leading === elements.length) return { cells: [], shift: leading };
  const trailing = elements.length - elements.replace(/\.+$/, '').length;
  const cells = [...elements.replaceAll('.', '')].map(cellOf);
  return { cells, shift: leading - trailing };
}

/** First version-2 reading: a dot is a half-width locked cell. */
function readCounted(row: Row): Cell[] {
  return [...row.elements].map(cellOf);
}

function sameLength(rows: readonly { readonly length: number }[]): boolean {
  return rows.every((r) => r.length === rows[0].length);
}
