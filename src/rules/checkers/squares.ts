/**
 * Squares of the 8x8 board as one index, `row * 8 + column`, in the orientation of the BARS
 * `area_monitor` array: row 0 is rank 8 (black's back row), column 0 is file a.
 * Only dark squares (row + column odd) are ever used by the game.
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

/** `g3` for row 5, column 6. */
export function squareName(square: Square): string {
  return String.fromCharCode(97 + columnOf(square)) + String(BOARD_SIZE - rowOf(square));
}

/** The square of a name like `g3`, or undefined when it is not a square of the board. */
export function parseSquareName(name: string): Square | undefined {
  if (name.length !== 2) return undefined;
  const column = name.charCodeAt(0) - 97;
  const rank = name.charCodeAt(1) - 48;
  if (column < 0 || column >= BOARD_SIZE || rank < 1 || rank > BOARD_SIZE) return undefined;
  return squareAt(BOARD_SIZE - rank, column);
}

/** The four diagonal steps as [row delta, column delta]. */
export const DIAGONALS: readonly (readonly [number, number])[] = [
  [-1, -1],
  [-1, 1],
  [1, -1],
  [1, 1],
];
