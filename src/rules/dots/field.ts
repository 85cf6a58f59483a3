/**
 * The geometry of a Dots field: `width` x `height` points, addressed by 0-based row and column.
 *
 * Points are stored in a grid padded with one ring of border cells, so that walking off the field
 * always lands on a cell that says "border" instead of needing a bounds check on every step.
 * A point's index in that padded grid is what the engine passes around.
 */
export const MIN_SIDE = 1;
export const MAX_SIDE = 50;

export interface Cell {
  /** 0-based row, growing downwards. */
  readonly row: number;
  /** 0-based column, growing to the right. */
  readonly col: number;
}

export class DotsField {
  /** Distance between two vertically adjacent points in the padded grid. */
  readonly stride: number;
  /** Number of cells of the padded grid. */
  readonly size: number;
  /** Offsets of the 4 neighbours, in the order N, E, S, W. */
  readonly sides: readonly [number, number, number, number];

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    for (const [name, value] of [
      ['width', width],
      ['height', height],
    ] as const) {
      if (!Number.isInteger(value) || value < MIN_SIDE || value > MAX_SIDE) {
        throw new RangeError(`field ${name} must be an integer from ${MIN_SIDE} to ${MAX_SIDE}, got ${value}`);
      }
    }
    this.stride = width + 2;
    this.size = this.stride * (height + 2);
    this.sides = [-this.stride, 1, this.stride, -1];
  }

  contains(row: number, col: number): boolean {
    return row >= 0 && row < this.height && col >= 0 && col < this.width;
  }

  /** Padded-grid index of a point that is on the field. */
  point(row: number, col: number): number {
    return (row + 1) * this.stride + col + 1;
  }

  row(point: number): number {
    return Math.floor(point / this.stride) - 1;
  }

  col(point: number): number {
    return (point % this.stride) - 1;
  }

  cell(point: number): Cell {
    return { row: this.row(point), col: this.col(point) };
  }

  /** Whether a padded-grid index is one of the border cells around the field. */
  isBorder(point: number): boolean {
    const row = this.row(point);
    const col = this.col(point);
    return row < 0 || row >= this.height || col < 0 || col >= this.width;
  }
}
