import type { Square } from './squares.js';

/**
 * A move of one piece: a quiet step (one landing, nothing captured) or a capture sequence
 * (one captured piece per landing, in order).
 */
export interface Move {
  readonly from: Square;
  /** Every square the piece stops on, the last one where it ends. */
  readonly landings: readonly Square[];
  /** Squares of the captured pieces; empty for a quiet move, else one per landing. */
  readonly captured: readonly Square[];
  /** A man that ends the move as a king (reached the last row, possibly in mid-capture). */
  readonly promotes: boolean;
}

export function isCapture(move: Move): boolean {
  return move.captured.length > 0;
}

export function destinationOf(move: Move): Square {
  return move.landings[move.landings.length - 1];
}

export function sameSquares(a: readonly Square[], b: readonly Square[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
