/*
 * Pattern search's brute force, for the pattern tests: boards as rows of cells (`X`, `O`, `.`, or
 * `-` for a point only `*` matches), every symmetry of the board made by turning the board's rows by
 * hand (grids.ts), and the pattern as written looked for in each turned board at the anchor's
 * offsets. Nothing of src/rules/patterns.ts or src/rules/symmetry.ts is used but the names.
 */
import type { TransformName } from '../../../src/rules/symmetry.js';
import { namesFor, turnRows } from './grids.js';

export type Anchor = 'anywhere' | 'corner' | 'edge';

/** Whether the pattern as written lies in `rows` with its top-left cell at (left, top); `swap` reads X as O and O as X. */
function at(rows: readonly (readonly string[])[] , pattern: readonly string[], left: number, top: number, swap: boolean): boolean {
  for (let y = 0; y < pattern.length; y++) {
    for (let x = 0; x < pattern[y].length; x++) {
      let want = pattern[y][x];
      if (want === '*') continue;
      if (swap && want !== '.') want = want === 'X' ? 'O' : 'X';
      if (rows[top + y][left + x] !== want) return false;
    }
  }
  return true;
}

const turnings = new Map<string, { width: number; height: number; from: number[] }>();

/** For the board turned by hand as named, the row-major index in the unturned board of each of its points. */
function turning(width: number, height: number, name: TransformName): { width: number; height: number; from: number[] } {
  const key = `${width}x${height}/${name}`;
  let found = turnings.get(key);
  if (!found) {
    const turned = turnRows(Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => y * width + x)), name);
    found = { width: turned[0].length, height: turned.length, from: turned.flat() };
    turnings.set(key, found);
  }
  return found;
}

/**
 * Whether the pattern is on the board (row-major cells): the board turned by each of its
 * symmetries, the pattern as written at the top-left corner (`corner`), anywhere along the top edge
 * (`edge`) or anywhere.
 */
export function onBoard(cells: string, width: number, height: number, pattern: readonly string[], anchor: Anchor, anyColors: boolean): boolean {
  const [pw, ph] = [pattern[0].length, pattern.length];
  for (const name of namesFor(width, height)) {
    const { width: tw, height: th, from } = turning(width, height, name);
    if (pw > tw || ph > th) continue;
    for (let top = 0; top <= (anchor === 'anywhere' ? th - ph : 0); top++) {
      for (let left = 0; left <= (anchor === 'corner' ? 0 : tw - pw); left++) {
        for (const swap of anyColors ? [false, true] : [false]) {
          let all = true;
          for (let y = 0; all && y < ph; y++) {
            for (let x = 0; x < pw; x++) {
              let want = pattern[y][x];
              if (want === '*') continue;
              if (swap && want !== '.') want = want === 'X' ? 'O' : 'X';
              if (cells[from[(top + y) * tw + left + x]] !== want) {
                all = false;
                break;
              }
            }
          }
          if (all) return true;
        }
      }
    }
  }
  return false;
}

/** Where the archive says the pattern is: turned by `transform`, its top-left cell at (left, top). */
export interface Where {
  readonly transform: TransformName;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  readonly colorsSwapped: boolean;
}

/** Whether the pattern turned by hand as `where` says lies there on the board. */
export function isThere(rows: readonly string[][], pattern: readonly string[], where: Where): boolean {
  const turned = turnRows(pattern.map((row) => [...row]), where.transform).map((row) => row.join(''));
  if (turned[0].length !== where.width || turned.length !== where.height) return false;
  if (where.left + where.width > rows[0].length || where.top + where.height > rows.length) return false;
  return at(rows, turned, where.left, where.top, where.colorsSwapped);
}

/**
 * A board point in the frame of the pattern as written, as `where` puts it: the pattern grown by one
 * cell each way is numbered, turned by hand and laid on the board; the number found on the point
 * names the cell. Null for a point outside the grown rectangle.
 */
export function inPatternFrame(pattern: readonly string[], where: Where, x: number, y: number): [number, number] | null {
  const [gw, gh] = [pattern[0].length + 2, pattern.length + 2];
  const numbered = Array.from({ length: gh }, (_, r) => Array.from({ length: gw }, (_, c) => r * gw + c));
  const turned = turnRows(numbered, where.transform);
  const cell = turned[y - where.top + 1]?.[x - where.left + 1];
  return cell === undefined ? null : [(cell % gw) - 1, Math.floor(cell / gw) - 1];
}

/** The first ply whose board (rows) holds the pattern, or -1. */
export function firstPly(boards: readonly (readonly string[][])[], pattern: readonly string[], anchor: Anchor, anyColors: boolean): number {
  return boards.findIndex((rows) => onBoard(rows.map((row) => row.join('')).join(''), rows[0].length, rows.length, pattern, anchor, anyColors));
}

/** A region of a board as pattern rows (the board's `-` points become `*`). */
export function region(rows: readonly string[][], left: number, top: number, width: number, height: number): string[] {
  return rows.slice(top, top + height).map((row) => row.slice(left, left + width).map((cell) => (cell === '-' ? '*' : cell)).join(''));
}
