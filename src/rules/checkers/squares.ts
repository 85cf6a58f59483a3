/**
 * Squares of the 8x8 board as one index, `row * 8 + column`, in the orientation of the BARS
 * `area_monitor` array: row 0 is rank 8 (black's back row), column 0 is file a.
 * Only dark squares (row + column odd) are ever used by the game. Square names (`g3`) are notation,
 * written and read by the formats (`src/formats/families/checkers/notation.ts`).
 */
export type Square = number;

export const BOARD_SIZE = 8;
export const SQUARE_COUNT = 64;

export function squareAt(row: number, column: number): Square {
  return row * BOARD_SIZE + column;
}

export function rowOf(square: Square): number {
  return square >> 3;
}

export function columnOf(square: Square): number {
  return square & 7;
}

export function isOnBoard(row: number, column: number): boolean {
  return row >= 0 && row < BOARD_SIZE && column >= 0 && column < BOARD_SIZE;
}

/** a1 is dark in checkers; in this orientation that is row 7, column 0, so dark squares have an odd row + column. */
export function isDarkSquare(row: number, column: number): boolean {
  return ((row + column) & 1) === 1;
}

/** The four diagonal steps as [row delta, column delta]. */
export const DIAGONALS: readonly (readonly [number, number])[] = [
  [-1, -1],
  [-1, 1],
  [1, -1],
  [1, 1],
];
