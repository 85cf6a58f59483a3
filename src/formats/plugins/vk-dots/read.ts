import { FormatError, FormatIssue } from '../../../core/errors.js';
import { ReadLimits, pliesExceeded } from '../../../core/limits.js';
import { digitValue } from './notation.js';

/** A dot placed by the code: 1-based row and column as written (0 is a digit, but off the field). */
export interface CodeMove {
  readonly kind: 'move';
  readonly text: string;
  readonly row: number;
  readonly col: number;
  /** Character offset of the move in the whole file. */
  readonly offset: number;
  /** The surround record written after the move, if any. */
  readonly record?: WrittenRecord;
}

/** `0f` / `0s`: the first / second player ended the game. */
export interface CodeStop {
  readonly kind: 'stop';
  readonly text: '0f' | '0s';
  readonly seat: 0 | 1;
  readonly offset: number;
}

export type CodeToken = CodeMove | CodeStop;

/** A `#chain#captured#empty#score#` record as written in the file. */
export interface WrittenRecord {
  /** The whole record text, from the first `#` to the last. */
  readonly text: string;
  readonly offset: number;
  readonly score: readonly [number, number];
}

/**
 * Parses a VK game code. `base` is the code's offset in the file, so every error names the
 * character offset in the upload. Structure only: whether moves and records are right is the
 * replay's business. A dot past `maxPlies` is refused where it stands.
 */
export function parseGameCode(
  code: string,
  base: number,
  locate: (offset: number) => Omit<FormatIssue, 'message'>,
  limits: ReadLimits,
): CodeToken[] {
  const fail = (message: string, at: number): never => {
    throw FormatError.at(`VK game code: ${message} at character offset ${base + at}`, locate(base + at));
  };
  const tokens: CodeToken[] = [];
  let dots = 0;
  let i = 0;
  const readPair = (what: string): [number, number] => {
    if (i + 1 >= code.length || code[i + 1] === '#' || code[i + 1] === '@') {
      fail(`${what} needs two characters (odd number of coordinate characters)`, i);
    }
    const row = digitValue(code[i]);
    if (row < 0) fail(`bad base-36 digit ${JSON.stringify(code[i])} in ${what}`, i);
    const col = digitValue(code[i + 1]);
    if (col < 0) fail(`bad base-36 digit ${JSON.stringify(code[i + 1])} in ${what}`, i + 1);
    i += 2;
    return [row, col];
  };
  while (i < code.length) {
    const start = i;
    if (code[i] === '#' || code[i] === '@') fail(`${JSON.stringify(code[i])} where a move was expected`, i);
    if (code[i] === '0' && (code[i + 1] === 'f' || code[i + 1] === 's')) {
      const text = code[i + 1] === 'f' ? '0f' : '0s';
      tokens.push({ kind: 'stop', text, seat: text === '0f' ? 0 : 1, offset: base + start });
      i += 2;
      if (code[i] === '#') fail(`a surround record after ${text}`, i);
      continue;
    }
    if (++dots > limits.maxPlies) throw pliesExceeded(limits, locate(base + start));
    const [row, col] = readPair('a move');
    if (code[i] !== '#') {
      tokens.push({ kind: 'move', text: code.slice(start, i), row, col, offset: base + start });
      continue;
    }
    const recordStart = i;
    i++;
    // chain (cycles separated by @), captured, empty: lists of pairs, each closed by #
    for (const [list, cycles] of [
      ['the chain', true],
      ['the captured dots', false],
      ['the empty points', false],
    ] as const) {
      for (;;) {
        if (i >= code.length) fail('unterminated surround record starting', recordStart);
        if (code[i] === '#') break;
        if (i + 1 >= code.length) fail('unterminated surround record starting', recordStart);
        if (cycles && code[i] === '@') {
          i++;
          continue;
        }
        readPair(list);
      }
      i++;
    }
    const scoreStart = i;
    const end = code.indexOf('#', i);
    if (end < 0) fail('unterminated surround record starting', recordStart);
    const match = /^(\d+)@(\d+)$/.exec(code.slice(scoreStart, end));
    if (match === null) fail(`bad score ${JSON.stringify(code.slice(scoreStart, end))} (expected first@second)`, scoreStart);
    i = end + 1;
    tokens.push({
      kind: 'move',
      text: code.slice(start, recordStart),
      row,
      col,
      offset: base + start,
      record: { text: code.slice(recordStart, i), offset: base + recordStart, score: [Number(match![1]), Number(match![2])] },
    });
  }
  return tokens;
}

/**
 * Where the first dot past `maxPlies` starts in a code, or -1: the parser's count of dots (stops
 * `0f`/`0s` and surround records are not dots) without its checks, so it never throws, allocates
 * nothing and stops at the bound. Run before anything else looks at the code.
 */
export function firstDotPast(code: string, maxPlies: number): number {
  let dots = 0;
  let i = 0;
  while (i < code.length) {
    if (code[i] === '#') {
      // A record is #chain#captured#empty#score#: five hashes, no hash inside its parts.
      for (let hashes = 0; i < code.length && hashes < 5; i++) if (code[i] === '#') hashes++;
      continue;
    }
    if (code[i] === '0' && (code[i + 1] === 'f' || code[i + 1] === 's')) {
      i += 2;
      continue;
    }
    if (++dots > maxPlies) return i;
    i += 2;
  }
  return -1;
}
