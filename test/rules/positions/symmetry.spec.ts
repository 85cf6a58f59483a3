import {
  TRANSFORMS,
  TRANSFORM_NAMES,
  Transform,
  apply,
  compose,
  gridSymmetries,
  inverse,
  isTransform,
  pointPermutation,
  swapsAxes,
  transformName,
  transformNamed,
  transformedSize,
} from '../../../src/rules/symmetry.js';
import { namesFor, turnRows } from '../../support/positions/grids.js';

/** A grid whose every cell names its own place: `x,y`. */
const labelled = (width: number, height: number): string[][] =>
  Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => `${x},${y}`));

const SIZES: [number, number][] = [
  [1, 1],
  [2, 2],
  [4, 4],
  [5, 5],
  [3, 5],
  [6, 2],
  [1, 4],
  [39, 32],
];

describe('grid symmetries', () => {
  it('keeps its ids and names (they are stored with positions)', () => {
    expect(TRANSFORM_NAMES).toEqual(['identity', 'rotate90', 'rotate180', 'rotate270', 'mirrorX', 'mirrorY', 'transpose', 'antiTranspose']);
    expect(TRANSFORMS).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const t of TRANSFORMS) expect(transformNamed(transformName(t))).toBe(t);
    expect(transformNamed('rotate45')).toBeNull();
    expect(isTransform(7)).toBe(true);
    expect(isTransform(8)).toBe(false);
    expect(isTransform(1.5)).toBe(false);
  });

  it.each(SIZES)('moves every point of a %ix%i grid where the grid turned by hand puts it', (width, height) => {
    const grid = labelled(width, height);
    for (const t of TRANSFORMS) {
      const turned = turnRows(grid, transformName(t));
      expect(transformedSize(t, width, height)).toEqual([turned[0].length, turned.length]);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const [tx, ty] = apply(t, x, y, width, height);
          expect(turned[ty][tx]).toBe(`${x},${y}`);
        }
      }
      const images = pointPermutation(t, width, height);
      const [turnedWidth] = transformedSize(t, width, height);
      images.forEach((image, p) => expect(turned[Math.floor(image / turnedWidth)][image % turnedWidth]).toBe(`${p % width},${Math.floor(p / width)}`));
    }
  });

  it('names a quarter turn clockwise rotate90 with (0,0) at the top left', () => {
    // The top-left corner of a 3-wide, 2-high grid goes to the top-right corner of the 2-wide, 3-high result.
    expect(apply(1, 0, 0, 3, 2)).toEqual([1, 0]);
    expect(apply(3, 0, 0, 3, 2)).toEqual([0, 2]);
    expect(apply(4, 0, 1, 3, 2)).toEqual([2, 1]);
    expect(apply(5, 0, 1, 3, 2)).toEqual([0, 0]);
    expect(apply(6, 2, 0, 3, 2)).toEqual([0, 2]);
    expect(apply(7, 0, 0, 3, 3)).toEqual([2, 2]);
  });

  it('gives a square all eight symmetries and a rectangle the four that keep its width and height', () => {
    expect(gridSymmetries(19, 19)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(gridSymmetries(1, 1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(gridSymmetries(39, 32)).toEqual([0, 2, 4, 5]);
    for (const [width, height] of SIZES) {
      const allowed = gridSymmetries(width, height);
      expect(allowed.map(transformName)).toEqual(namesFor(width, height));
      for (const t of allowed) expect(transformedSize(t, width, height)).toEqual([width, height]);
      // Those that are left out would change a rectangle's shape.
      for (const t of TRANSFORMS.filter((t) => !allowed.includes(t))) {
        expect(swapsAxes(t)).toBe(true);
        expect(transformedSize(t, width, height)).toEqual([height, width]);
      }
    }
  });

  it('composes two transforms into the one that does both, on squares and on rectangles', () => {
    for (const [width, height] of SIZES) {
      const grid = labelled(width, height);
      for (const before of TRANSFORMS) {
        for (const after of TRANSFORMS) {
          const both = turnRows(turnRows(grid, transformName(before)), transformName(after));
          expect(turnRows(grid, transformName(compose(after, before)))).toEqual(both);
        }
      }
    }
  });

  it('undoes each transform with its inverse', () => {
    const grid = labelled(3, 4);
    for (const t of TRANSFORMS) {
      expect(compose(inverse(t), t)).toBe(0);
      expect(compose(t, inverse(t))).toBe(0);
      expect(turnRows(turnRows(grid, transformName(t)), transformName(inverse(t)))).toEqual(grid);
    }
    // Reflections undo themselves; a quarter turn is undone by the other quarter turn.
    expect([4, 5, 6, 7, 2].map((t) => inverse(t as Transform))).toEqual([4, 5, 6, 7, 2]);
    expect(inverse(1)).toBe(3);
  });

  it("keeps a rectangle's four symmetries a group: their products and inverses stay among them", () => {
    const four = gridSymmetries(5, 3);
    for (const a of four) {
      expect(four).toContain(inverse(a));
      for (const b of four) expect(four).toContain(compose(a, b));
    }
  });
});
