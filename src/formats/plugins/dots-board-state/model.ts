import { FormatError } from '../../../core/errors.js';
import { ReadLimits, boardExceeded, checkLineLengths } from '../../../core/limits.js';
import { locate } from '../../text/decode.js';

/** A Dots server response 204 (current game state), as parsed. */
export interface BoardState {
  /** The description after `204`, if any. */
  readonly description: string | null;
  /** `ACU login`: whose move it is. */
  readonly toMove: string;
  /** `AUF`: which players are still active, one flag per seat. */
  readonly active: readonly boolean[];
  /** `SCR`: the scores as written, one per seat. */
  readonly scores: readonly number[];
  readonly width: number;
  readonly height: number;
  /** Row-major point digits of the `GAL` rows. */
  readonly points: readonly number[];
  /** Character offset and length of the `SCR` line, for regeneration. */
  readonly scoreLine: { readonly offset: number; readonly length: number };
}

interface Line {
  readonly text: string;
  readonly offset: number;
}

function lines(text: string): Line[] {
  const result: Line[] = [];
  const pattern = /\r\n|\n|\r/g;
  let start = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    result.push({ text: text.slice(start, match.index), offset: start });
    start = match.index + match[0].length;
  }
  if (start < text.length) result.push({ text: text.slice(start), offset: start });
  return result;
}

/** Cheap test used by detection: `204` on the first line and `ACU ` on the second. */
export function looksLikeBoardState(text: string): boolean {
  const first = lines(text.slice(0, 400));
  return first.length >= 2 && /^204( |$)/.test(first[0].text) && first[1].text.startsWith('ACU ');
}

/**
 * Parses a 204 answer. Line lengths are checked before the text is split, and the board's width and
 * height (the first GAL row's points, the number of GAL lines) before any point is read.
 */
export function parseBoardState(text: string, limits: ReadLimits): BoardState {
  checkLineLengths(text, limits);
  const all = lines(text);
  const fail = (message: string, line: Line, column = 0): never => {
    throw FormatError.at(message, locate(text, line.offset + column));
  };
  let i = 0;
  const next = (what: string): Line => {
    const line = all[i++];
    if (line === undefined) throw FormatError.at(`the 204 answer ends before its ${what} line`, locate(text, text.length));
    return line;
  };
  const head = next('204');
  const headMatch = /^204(?: (.*))?$/.exec(head.text);
  if (headMatch === null) fail('a board state starts with the response code 204', head);
  const acu = next('ACU');
  const acuMatch = /^ACU (\S+)$/.exec(acu.text);
  if (acuMatch === null) fail('line 2 must be "ACU login" (whose move; a login has no spaces)', acu);
  const auf = next('AUF');
  const aufMatch = /^AUF ([01](?: [01]){1,3})$/.exec(auf.text);
  if (aufMatch === null) fail('line 3 must be "AUF" and 2 to 4 flags 0/1 (active players)', auf);
  const active = aufMatch![1].split(' ').map((flag) => flag === '1');
  const scr = next('SCR');
  const scrMatch = /^SCR (\d+(?: \d+)*)$/.exec(scr.text);
  if (scrMatch === null) fail('line 4 must be "SCR" and one score per player', scr);
  const scores = scrMatch![1].split(' ').map(Number);
  if (scores.length !== active.length) fail(`SCR gives ${scores.length} scores for ${active.length} players (AUF)`, scr);
  const players = active.length;
  checkBoardBounds(text, all, i, limits);
  const points: number[] = [];
  let width = -1;
  let height = 0;
  while (i < all.length && all[i].text.startsWith('GAL')) {
    const row = all[i++];
    const match = /^GAL (\d+)$/.exec(row.text);
    if (match === null) fail('a GAL line is "GAL" and one digit per point', row);
    const digits = match![1];
    if (width < 0) width = digits.length;
    if (digits.length !== width) fail(`GAL row ${height} has ${digits.length} points, the first row ${width}`, row);
    for (let col = 0; col < digits.length; col++) {
      const d = digits.charCodeAt(col) - 48;
      const seat = d >= 1 && d <= 4 ? d - 1 : d >= 5 && d <= 8 ? d - 5 : -1;
      if (seat >= players) fail(`point ${col},${height} is a dot of player ${seat + 1}, but the game has ${players} players`, row, 4 + col);
      points.push(d);
    }
    height++;
  }
  if (height === 0) {
    const line = all[i];
    if (line === undefined) throw FormatError.at('the 204 answer has no GAL rows', locate(text, text.length));
    fail('expected the GAL rows of the board', line);
  }
  if (width > 50 || height > 50) fail(`the board is ${width}x${height}; a Dots field is at most 50x50`, all[i - 1]);
  for (; i < all.length; i++) {
    if (all[i].text !== '') fail('after the GAL rows only the blank line that ends the answer may follow', all[i]);
  }
  return {
    description: headMatch![1] ?? null,
    toMove: acuMatch![1],
    active,
    scores,
    width,
    height,
    points,
    scoreLine: { offset: scr.offset, length: scr.text.length },
  };
}

/** Refuses a board wider or taller than MAX_BOARD_SIDE at the point or row that crosses it. */
function checkBoardBounds(text: string, all: readonly Line[], firstRow: number, limits: ReadLimits): void {
  let height = 0;
  while (firstRow + height < all.length && all[firstRow + height].text.startsWith('GAL')) height++;
  if (height === 0) return;
  const first = all[firstRow];
  const width = /^GAL (\d+)$/.exec(first.text)?.[1].length ?? 0;
  if (width > limits.maxBoardSide) {
    throw boardExceeded(limits, width, height, locate(text, first.offset + 4 + limits.maxBoardSide));
  }
  if (height > limits.maxBoardSide) {
    throw boardExceeded(limits, width, height, locate(text, all[firstRow + limits.maxBoardSide].offset));
  }
}
