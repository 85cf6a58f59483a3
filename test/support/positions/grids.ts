/*
 * Turning a grid by hand, for the position-key tests: each transform written out as a way of reading
 * the old grid's rows and columns, without src/rules/symmetry.ts (only its names are shared). A grid
 * is rows of cells, row 0 at the top, column 0 on the left.
 */
import type { TransformName } from '../../../src/rules/symmetry.js';

export type Rows<T> = T[][];

const column = <T>(rows: Rows<T>, c: number): T[] => rows.map((row) => row[c]);
const columnsLeftToRight = <T>(rows: Rows<T>): T[][] => (rows[0] ?? []).map((_, c) => column(rows, c));
const reversed = <T>(items: readonly T[]): T[] => [...items].reverse();

/** The grid turned as its name says. */
export function turnRows<T>(rows: Rows<T>, name: TransformName): Rows<T> {
  switch (name) {
    case 'identity':
      return rows.map((row) => [...row]);
    case 'rotate90': // clockwise: each new row is an old column, left to right, read from the bottom up
      return columnsLeftToRight(rows).map(reversed);
    case 'rotate180':
      return reversed(rows).map(reversed);
    case 'rotate270': // anticlockwise: the old columns from the right, each read from the top down
      return reversed(columnsLeftToRight(rows));
    case 'mirrorX': // left and right exchanged
      return rows.map(reversed);
    case 'mirrorY': // top and bottom exchanged
      return reversed(rows);
    case 'transpose': // the diagonal from the top left stays: rows become columns
      return columnsLeftToRight(rows);
    case 'antiTranspose': // the diagonal from the top right stays
      return reversed(columnsLeftToRight(rows)).map(reversed);
  }
}

/** Row-major cells of a width × height grid as rows. */
export function rowsOf<T>(cells: ArrayLike<T>, width: number, height: number): Rows<T> {
  return Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => cells[y * width + x]));
}

/** Rows back to row-major cells. */
export function cellsOf<T>(rows: Rows<T>): T[] {
  return rows.flat();
}

/** Row-major cells turned: the cells, width and height of the turned grid. */
export function turnCells<T>(cells: ArrayLike<T>, width: number, height: number, name: TransformName): { cells: T[]; width: number; height: number } {
  const turned = turnRows(rowsOf(cells, width, height), name);
  return { cells: cellsOf(turned), width: turned[0]?.length ?? 0, height: turned.length };
}

/** The names a W×H board allows: all eight when square, else those that keep a rectangle's shape. */
export function namesFor(width: number, height: number): TransformName[] {
  return width === height
    ? ['identity', 'rotate90', 'rotate180', 'rotate270', 'mirrorX', 'mirrorY', 'transpose', 'antiTranspose']
    : ['identity', 'rotate180', 'mirrorX', 'mirrorY'];
}

/** A small deterministic generator for test data (not the one under test). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

/*
 * The same turning made fast enough for every position of a corpus: for a size and a name, the old
 * row-major index of every point of the turned grid, found once by turning a grid of indices by hand.
 */
const gathers = new Map<string, Int32Array>();

export function gatherFor(width: number, height: number, name: TransformName): Int32Array {
  const id = `${width}x${height}:${name}`;
  let found = gathers.get(id);
  if (!found) {
    found = Int32Array.from(turnCells(Array.from({ length: width * height }, (_, i) => i), width, height, name).cells);
    gathers.set(id, found);
  }
  return found;
}

/** Row-major cells turned by hand through {@link gatherFor}; the turned grid's size is {@link turnCells}'. */
export function turnFast(cells: ArrayLike<number>, width: number, height: number, name: TransformName): Uint8Array {
  const from = gatherFor(width, height, name);
  const out = new Uint8Array(from.length);
  for (let i = 0; i < out.length; i++) out[i] = cells[from[i]];
  return out;
}

/** Where the point (x, y) of a width × height grid is in the grid turned by hand: `[x', y']` and the turned width. */
export function turnedPoint(x: number, y: number, width: number, height: number, name: TransformName): [number, number] {
  const turnedWidth = name === 'rotate90' || name === 'rotate270' || name === 'transpose' || name === 'antiTranspose' ? height : width;
  const at = gatherFor(width, height, name).indexOf(y * width + x);
  return [at % turnedWidth, Math.floor(at / turnedWidth)];
}
