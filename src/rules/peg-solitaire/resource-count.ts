import { MoveMode } from './board.js';
import { Geometry } from './geometry.js';

/** The golden ratio: the largest r with 1 + r ≥ r², the step that keeps the weights below a pagoda. */
const PHI = (1 + Math.sqrt(5)) / 2;

/**
 * Resource counts (pagoda functions) for finishing on a given slot t: weight φ^−d(s, t) per slot,
 * with d the Manhattan distance in normal mode and the Chebyshev distance in diagonal mode.
 *
 * Along any line a jump can take, d changes by at most one per step and is convex, so for every jump
 * w(from) + w(over) ≥ w(to) (equality when jumping straight at t). Hence the total weight of the stones
 * never grows, and a position whose total is below w(t) = 1 can never end with its last stone on t.
 * This cuts off end games where stragglers are too far away from where the last stone must be.
 *
 * Returns `weights[k * n + s]` for the k-th slot of `finals`.
 */
export function resourceWeights(geometry: Geometry, mode: MoveMode, finals: readonly number[]): Float64Array {
  const n = geometry.slots.length;
  const weights = new Float64Array(finals.length * n);
  finals.forEach((t, k) => {
    const target = geometry.slots[t];
    geometry.slots.forEach((p, s) => {
      const dx = Math.abs(p.x - target.x);
      const dy = Math.abs(p.y - target.y);
      const d = mode === 'diagonal' ? Math.max(dx, dy) : dx + dy;
      weights[k * n + s] = PHI ** -d;
    });
  });
  return weights;
}
