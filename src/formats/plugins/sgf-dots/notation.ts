import type { Cell } from '../../../rules/dots/index.js';
import { indexLetter, letterIndex } from '../../syntaxes/sgf/index.js';

/**
 * Dots SGF (`GM[40]`) notation, as zagram.org, szkrab.net.pl, the Kropki app and playdots.ru write
 * it: a point is two letters, the column first, `a`-`z` = 0-25 then `A`-`Z` = 26-51 (so fields up
 * to 52 points a side). A move's value is its dot, optionally followed by the chains it closed,
 * each after a `.` and each a list of points (`W[hj.gihjijjikhkgjfighhgi]`). An empty value
 * (`W[]`) is a finishing move without a dot (grounding); a value that starts with `.` holds chains
 * only (zagram's `TB`/`TW` territory after the last move).
 */
export const LARGEST_SGF_SIDE = 52;

/** The two letters of a 0-based cell: column, then row. */
export function pointName(cell: Cell): string {
  return indexLetter(cell.col) + indexLetter(cell.row);
}

/** Why a value does not read, with the 0-based character index in the value. */
export class NotationError extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

function readPoint(value: string, at: number, what: string): Cell {
  if (at + 1 >= value.length) throw new NotationError(`${what} needs two letters`, at);
  const col = letterIndex(value[at]);
  if (col < 0) throw new NotationError(`${JSON.stringify(value[at])} is not a coordinate letter (a-z, A-Z) in ${what}`, at);
  const row = letterIndex(value[at + 1]);
  if (row < 0) throw new NotationError(`${JSON.stringify(value[at + 1])} is not a coordinate letter (a-z, A-Z) in ${what}`, at + 1);
  return { row, col };
}

export interface MoveValue {
  /** The dot placed, or null for an empty value (a finishing move) or chains only. */
  readonly dot: Cell | null;
  /** The chains written after the dot, each as its points in written order. */
  readonly chains: readonly (readonly Cell[])[];
}

/** Reads `ab`, `ab.cdefgh…`, `.cdef….ghij…` or `` (empty). */
export function parseMoveValue(value: string): MoveValue {
  if (value.length === 0) return { dot: null, chains: [] };
  let at = 0;
  let dot: Cell | null = null;
  if (value[0] !== '.') {
    dot = readPoint(value, 0, 'the dot');
    at = 2;
  }
  const chains: Cell[][] = [];
  while (at < value.length) {
    if (value[at] !== '.') throw new NotationError(`expected "." before a chain, found ${JSON.stringify(value[at])}`, at);
    at++;
    const chain: Cell[] = [];
    while (at < value.length && value[at] !== '.') {
      chain.push(readPoint(value, at, 'a chain'));
      at += 2;
    }
    if (chain.length > 0) chains.push(chain);
  }
  return { dot, chains };
}

export function writeMoveValue(dot: Cell | null, chains: readonly (readonly Cell[])[]): string {
  return (dot === null ? '' : pointName(dot)) + chains.map((chain) => `.${chain.map(pointName).join('')}`).join('');
}

/** `SZ[n]` or `SZ[w:h]`: width and height, or null when the value is not that. */
export function parseSize(value: string): { width: number; height: number } | null {
  const match = /^\s*(\d+)\s*(?::\s*(\d+)\s*)?$/.exec(value);
  if (match === null) return null;
  const width = Number(match[1]);
  const height = match[2] === undefined ? width : Number(match[2]);
  return { width, height };
}

export function writeSize(width: number, height: number): string {
  return width === height ? String(width) : `${width}:${height}`;
}

/** The SGF result `RE`: seat 0 is Black, seat 1 White. */
export type SgfResult =
  | { readonly kind: 'score'; readonly winner: number; readonly margin: number }
  /** `B+` / `W+` without a number: a win, margin not given. */
  | { readonly kind: 'win'; readonly winner: number }
  | { readonly kind: 'resign' | 'time' | 'forfeit'; readonly winner: number }
  | { readonly kind: 'draw' }
  | { readonly kind: 'void' }
  | { readonly kind: 'unknown' };

/**
 * Reads `B+23`, `W+0.5`, `W+R`/`W+Resign`, `B+T`/`B+Time`, `B+F`/`B+Forfeit`, `B+`, `0`/`Draw`,
 * `Void`, `?` (case of the words ignored). Anything else is null: the caller reports it.
 */
export function parseResult(value: string): SgfResult | null {
  const text = value.trim();
  if (text === '0' || /^(draw|jigo)$/i.test(text)) return { kind: 'draw' };
  if (text === '?') return { kind: 'unknown' };
  if (/^void$/i.test(text)) return { kind: 'void' };
  const match = /^([BW])\+(.*)$/i.exec(text);
  if (match === null) return null;
  const winner = match[1].toUpperCase() === 'B' ? 0 : 1;
  const rest = match[2].trim();
  if (rest === '') return { kind: 'win', winner };
  if (/^r(esign)?$/i.test(rest)) return { kind: 'resign', winner };
  if (/^t(ime)?$/i.test(rest)) return { kind: 'time', winner };
  if (/^f(orfeit)?$/i.test(rest)) return { kind: 'forfeit', winner };
  if (/^\d+(\.\d+)?$/.test(rest)) {
    const margin = Number(rest);
    return margin === 0 ? { kind: 'draw' } : { kind: 'score', winner, margin };
  }
  return null;
}

/** `B+3`, `W+R`, `0`…: the regenerated result, Black's and White's captures given. */
export function scoreResult(scores: readonly number[]): string {
  const [black, white] = scores;
  if (black === white) return '0';
  return black > white ? `B+${black - white}` : `W+${white - black}`;
}
