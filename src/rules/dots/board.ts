import { DotsField } from './field.js';

/** `owner` value of the border ring around the field. */
export const BORDER = 255;
/** `owner` value of an empty point. */
export const EMPTY = 0;

/**
 * The mutable state of the points of one field.
 *
 * - `owner[p]`: EMPTY, `seat + 1` for a dot of that seat, or BORDER.
 * - `captor[p]`: 0, or `seat + 1` of the player who surrounded the point. For a dot it means the dot
 *   is captured (no longer live: it neither forms nor blocks chains); for an empty point it means
 *   the point lies in that player's surrounded area and nobody may play there.
 * - `placedAt[p]`: 1-based ply at which the dot was placed (0 for empty points).
 */
export class DotsBoard {
  readonly owner: Uint8Array;
  readonly captor: Uint8Array;
  readonly placedAt: Int32Array;

  constructor(readonly field: DotsField) {
    this.owner = new Uint8Array(field.size).fill(BORDER);
    this.captor = new Uint8Array(field.size);
    this.placedAt = new Int32Array(field.size);
    for (let row = 0; row < field.height; row++) {
      for (let col = 0; col < field.width; col++) this.owner[field.point(row, col)] = EMPTY;
    }
  }

  /** A dot of `seat` that has not been captured. */
  isLiveDot(point: number, seat: number): boolean {
    return this.owner[point] === seat + 1 && this.captor[point] === 0;
  }

  /** A dot of any seat other than `seat` that has not been captured. */
  isLiveEnemyDot(point: number, seat: number): boolean {
    const owner = this.owner[point];
    return owner !== EMPTY && owner !== BORDER && owner !== seat + 1 && this.captor[point] === 0;
  }
}
