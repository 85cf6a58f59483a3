import { DIAGONALS, SQUARE_COUNT, Square, columnOf, isOnBoard, rowOf, squareAt } from './squares.js';

/**
 * For every square and each of the four diagonals, the squares met walking away from it, nearest
 * first. Precomputed once: move generation only walks these lists.
 */
export const RAYS: readonly (readonly (readonly Square[])[])[] = buildRays();

/** Index into DIAGONALS of the direction that goes from `from` towards `to`, or -1 when they are not on one diagonal. */
export function directionBetween(from: Square, to: Square): number {
  const rowDelta = rowOf(to) - rowOf(from);
  const columnDelta = columnOf(to) - columnOf(from);
  if (rowDelta === 0 || Math.abs(rowDelta) !== Math.abs(columnDelta)) return -1;
  return DIAGONALS.findIndex(([r, c]) => r === Math.sign(rowDelta) && c === Math.sign(columnDelta));
}

function buildRays(): Square[][][] {
  const rays: Square[][][] = [];
  for (let square = 0; square < SQUARE_COUNT; square++) {
    rays.push(
      DIAGONALS.map(([rowStep, columnStep]) => {
        const ray: Square[] = [];
        let row = rowOf(square) + rowStep;
        let column = columnOf(square) + columnStep;
        while (isOnBoard(row, column)) {
          ray.push(squareAt(row, column));
          row += rowStep;
          column += columnStep;
        }
        return ray;
      }),
    );
  }
  return rays;
}
