import { Geometry } from './geometry.js';

/**
 * The board's symmetries as permutations of slot numbers: those of the eight rotations and reflections
 * of the square lattice that map the slots onto themselves and the targets onto themselves. Every one
 * of them maps jumps to jumps in both modes, so two positions that are images of each other are both
 * solvable or both not — the search needs to look at only one of them.
 *
 * The transforms act on the slots' bounding box, not on the matrix, so locked margins do not hide a
 * symmetry. The identity comes first.
 */
export function symmetriesOf(geometry: Geometry, isTarget: (slot: number) => boolean): Int32Array[] {
  const { slots } = geometry;
  if (slots.length === 0) return [identity(0)];
  const minX = Math.min(...slots.map((p) => p.x));
  const maxX = Math.max(...slots.map((p) => p.x));
  const minY = Math.min(...slots.map((p) => p.y));
  const maxY = Math.max(...slots.map((p) => p.y));
  const w = maxX - minX + 1;
  const h = maxY - minY + 1;
  const index = new Map<string, number>();
  slots.forEach((p, slot) => index.set(`${p.x - minX},${p.y - minY}`, slot));

  // (x, y) inside the w×h box → image inside the box; the four with a swap of axes need a square box.
  const transforms: ((x: number, y: number) => [number, number])[] = [
    (x, y) => [x, y],
    (x, y) => [w - 1 - x, y],
    (x, y) => [x, h - 1 - y],
    (x, y) => [w - 1 - x, h - 1 - y],
  ];
  if (w === h) {
    transforms.push(
      (x, y) => [y, x],
      (x, y) => [h - 1 - y, x],
      (x, y) => [y, w - 1 - x],
      (x, y) => [h - 1 - y, w - 1 - x],
    );
  }
  const result: Int32Array[] = [];
  for (const transform of transforms) {
    const permutation = new Int32Array(slots.length);
    const fits = slots.every((p, slot) => {
      const [x, y] = transform(p.x - minX, p.y - minY);
      const image = index.get(`${x},${y}`);
      if (image === undefined || isTarget(image) !== isTarget(slot)) return false;
      permutation[slot] = image;
      return true;
    });
    if (fits) result.push(permutation);
  }
  return result;
}

function identity(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}
