import { Board, MoveMode, Point } from './board.js';

/**
 * The fixed structure of a board that every search and replay needs: its slots numbered 0..n-1 in
 * reading order, and every jump the board allows, whatever stones stand where.
 */
export interface Geometry {
  readonly width: number;
  readonly height: number;
  /** Matrix position of each slot, in reading order (row by row, left to right). */
  readonly slots: readonly Point[];
  /** Slot number of each matrix cell, -1 for locked cells. */
  readonly slotOfCell: Int32Array;
  /** Every possible jump; a jump is legal when `from` and `over` hold stones and `to` is empty. */
  readonly jumps: readonly Jump[];
}

/** A jump as slot numbers. */
export interface Jump {
  readonly from: number;
  readonly over: number;
  readonly to: number;
}

const ORTHOGONAL: readonly Point[] = [
  { x: 0, y: -1 },
  { x: 1, y: 0 },
  { x: 0, y: 1 },
  { x: -1, y: 0 },
];
const DIAGONAL: readonly Point[] = [
  { x: 1, y: -1 },
  { x: 1, y: 1 },
  { x: -1, y: 1 },
  { x: -1, y: -1 },
];

/** The unit steps a jump may take: orthogonal always, diagonal in diagonal mode. */
export function directions(mode: MoveMode): readonly Point[] {
  return mode === 'diagonal' ? [...ORTHOGONAL, ...DIAGONAL] : ORTHOGONAL;
}

export function geometryOf(board: Board): Geometry {
  const { width, height } = board;
  const slots: Point[] = [];
  const slotOfCell = new Int32Array(width * height).fill(-1);
  board.cells.forEach((cell, i) => {
    if (cell.kind !== 'slot') return;
    slotOfCell[i] = slots.length;
    slots.push({ x: i % width, y: Math.floor(i / width) });
  });
  const slotAt = (x: number, y: number): number =>
    x < 0 || y < 0 || x >= width || y >= height ? -1 : slotOfCell[y * width + x];
  const jumps: Jump[] = [];
  slots.forEach(({ x, y }, from) => {
    for (const d of directions(board.mode)) {
      const over = slotAt(x + d.x, y + d.y);
      const to = slotAt(x + 2 * d.x, y + 2 * d.y);
      if (over >= 0 && to >= 0) jumps.push({ from, over, to });
    }
  });
  return { width, height, slots, slotOfCell, jumps };
}
