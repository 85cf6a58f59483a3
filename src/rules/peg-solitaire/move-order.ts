import { Geometry } from './geometry.js';

/**
 * The orders in which the search tries jumps, fixed per board. Which order reaches a solution soonest
 * depends on the board, so the solver takes turns between them:
 * 1. reading order of the jumping stone (top left first),
 * 2. rim first: jumps that take away stones far from the board's centre, landing nearer the centre
 *    (how people clear a board: empty the edges, gather the stones in the middle),
 * 3. the reverse of reading order.
 * The order changes only speed, never the verdict.
 */
export function jumpOrders(geometry: Geometry): Int32Array[] {
  const reading = Array.from(geometry.jumps.keys());
  return [Int32Array.from(reading), rimFirst(geometry), Int32Array.from(reading.reverse())];
}

function rimFirst(geometry: Geometry): Int32Array {
  const n = Math.max(1, geometry.slots.length);
  const cx = geometry.slots.reduce((sum, p) => sum + p.x, 0) / n;
  const cy = geometry.slots.reduce((sum, p) => sum + p.y, 0) / n;
  const distance = (slot: number): number => (geometry.slots[slot].x - cx) ** 2 + (geometry.slots[slot].y - cy) ** 2;
  const order = Array.from(geometry.jumps.keys());
  order.sort((a, b) => {
    const ja = geometry.jumps[a];
    const jb = geometry.jumps[b];
    return distance(jb.over) - distance(ja.over) || distance(ja.to) - distance(jb.to) || a - b;
  });
  return Int32Array.from(order);
}
