/**
 * The symmetries of a rectangular grid of points: the eight rotations and reflections of a square
 * (the dihedral group of order 8) as small integer ids, with what each does to a point.
 *
 * Coordinates: `x` is the column, growing to the right, `y` the row, growing downwards, `(0, 0)` the
 * top-left point; the grid is `width` × `height` points. A transform maps a point of the grid to a
 * point of the turned grid, whose size is {@link transformedSize} (the four that swap the axes turn a
 * W×H grid into an H×W one; on a square grid every transform keeps the size).
 *
 * | id | name            | (x, y) →       | what it does                                                              |
 * |----|-----------------|----------------|---------------------------------------------------------------------------|
 * | 0  | `identity`      | (x, y)         | nothing                                                                   |
 * | 1  | `rotate90`      | (H-1-y, x)     | a quarter turn clockwise: the top-left corner goes to the top right       |
 * | 2  | `rotate180`     | (W-1-x, H-1-y) | a half turn                                                               |
 * | 3  | `rotate270`     | (y, W-1-x)     | a quarter turn anticlockwise: the top-left corner goes to the bottom left |
 * | 4  | `mirrorX`       | (W-1-x, y)     | mirror left–right (x reversed)                                            |
 * | 5  | `mirrorY`       | (x, H-1-y)     | mirror top–bottom (y reversed)                                            |
 * | 6  | `transpose`     | (y, x)         | mirror in the diagonal through the top-left corner                        |
 * | 7  | `antiTranspose` | (H-1-y, W-1-x) | mirror in the diagonal through the top-right corner (of a square)         |
 *
 * A grid's own symmetries ({@link gridSymmetries}) are the transforms that keep its size: all eight
 * of a square grid, and of a W×H rectangle (W ≠ H) the four that do not swap the axes: identity,
 * rotate180, mirrorX and mirrorY. Ids, names and their order are stable (stored with positions).
 */

/** One of the eight transforms; see the table above. */
export type Transform = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

export const IDENTITY = 0;
export const ROTATE_90 = 1;
export const ROTATE_180 = 2;
export const ROTATE_270 = 3;
export const MIRROR_X = 4;
export const MIRROR_Y = 5;
export const TRANSPOSE = 6;
export const ANTI_TRANSPOSE = 7;

/** Every transform, by id. */
export const TRANSFORMS: readonly Transform[] = Object.freeze([0, 1, 2, 3, 4, 5, 6, 7]);

/** The transforms that keep a W×H rectangle's size when W ≠ H. */
const RECTANGLE_TRANSFORMS: readonly Transform[] = Object.freeze([IDENTITY, ROTATE_180, MIRROR_X, MIRROR_Y] as Transform[]);

/** Stable short names, by id. */
export const TRANSFORM_NAMES = Object.freeze(['identity', 'rotate90', 'rotate180', 'rotate270', 'mirrorX', 'mirrorY', 'transpose', 'antiTranspose'] as const);

export type TransformName = (typeof TRANSFORM_NAMES)[number];

export function transformName(transform: Transform): TransformName {
  return TRANSFORM_NAMES[transform];
}

/** The transform of a name from {@link TRANSFORM_NAMES}, or null for any other text. */
export function transformNamed(name: string): Transform | null {
  const id = (TRANSFORM_NAMES as readonly string[]).indexOf(name);
  return id < 0 ? null : (id as Transform);
}

export function isTransform(value: unknown): value is Transform {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 7;
}

/** Whether the transform exchanges the axes (rotate90, rotate270, transpose, antiTranspose). */
export function swapsAxes(transform: Transform): boolean {
  return transform === ROTATE_90 || transform === ROTATE_270 || transform === TRANSPOSE || transform === ANTI_TRANSPOSE;
}

/** `[width, height]` of the grid after the transform. */
export function transformedSize(transform: Transform, width: number, height: number): [number, number] {
  return swapsAxes(transform) ? [height, width] : [width, height];
}

/** The symmetries of a `width` × `height` grid: all eight when it is square, else the four that keep its size. */
export function gridSymmetries(width: number, height: number): readonly Transform[] {
  return width === height ? TRANSFORMS : RECTANGLE_TRANSFORMS;
}

/** Where the point (x, y) of a `width` × `height` grid lands under the transform, as `[x', y']`. */
export function apply(transform: Transform, x: number, y: number, width: number, height: number): [number, number] {
  switch (transform) {
    case IDENTITY:
      return [x, y];
    case ROTATE_90:
      return [height - 1 - y, x];
    case ROTATE_180:
      return [width - 1 - x, height - 1 - y];
    case ROTATE_270:
      return [y, width - 1 - x];
    case MIRROR_X:
      return [width - 1 - x, y];
    case MIRROR_Y:
      return [x, height - 1 - y];
    case TRANSPOSE:
      return [y, x];
    case ANTI_TRANSPOSE:
      return [height - 1 - y, width - 1 - x];
  }
}

/**
 * For every point of a `width` × `height` grid, by row-major index `y * width + x`, the row-major
 * index of its image in the turned grid (whose row length is the turned width).
 */
export function pointPermutation(transform: Transform, width: number, height: number): Int32Array {
  const [turnedWidth] = transformedSize(transform, width, height);
  const images = new Int32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [tx, ty] = apply(transform, x, y, width, height);
      images[y * width + x] = ty * turnedWidth + tx;
    }
  }
  return images;
}

/*
 * The group's multiplication table, worked out once from the point maps above: on a 3×3 grid each
 * transform sends the corner (0, 0) and the edge point (1, 0) somewhere different, so the images of
 * those two points name the transform.
 */
const PROBE = 3;
const signature = (images: readonly [number, number][]): string => images.map(([x, y]) => `${x},${y}`).join(';');
const BY_SIGNATURE = new Map<string, Transform>(
  TRANSFORMS.map((t) => [
    signature([
      apply(t, 0, 0, PROBE, PROBE),
      apply(t, 1, 0, PROBE, PROBE),
    ]),
    t,
  ]),
);
const PRODUCTS: Transform[][] = TRANSFORMS.map((after) =>
  TRANSFORMS.map((before) => {
    const twice = (x: number, y: number): [number, number] => {
      const [bx, by] = apply(before, x, y, PROBE, PROBE);
      return apply(after, bx, by, PROBE, PROBE);
    };
    return BY_SIGNATURE.get(signature([twice(0, 0), twice(1, 0)]))!;
  }),
);
const INVERSES: Transform[] = TRANSFORMS.map((t) => TRANSFORMS.find((s) => PRODUCTS[s][t] === IDENTITY)!);

/**
 * The transform that does `before`, then `after`: `apply(compose(after, before), p)` is
 * `apply(after, apply(before, p))` (with the grid size `before` leaves for `after`).
 */
export function compose(after: Transform, before: Transform): Transform {
  return PRODUCTS[after][before];
}

/** The transform that undoes `transform` (on the turned grid): `compose(inverse(t), t)` is the identity. */
export function inverse(transform: Transform): Transform {
  return INVERSES[transform];
}

const imageTables = new Map<string, Int32Array>();

/**
 * Where every point of a `width` × `height` grid goes under each symmetry the grid keeps, as the
 * first index of its values in a key table that lays points out row-major with rows of `stride`
 * points and `states` values a point: `images[t * width * height + p]` for point `p` (row-major,
 * rows of `width`). Other transforms' entries stay 0. Made once per shape and kept.
 */
export function pointImages(width: number, height: number, stride: number, states: number): Int32Array {
  const name = `${width}x${height}/${stride}/${states}`;
  let images = imageTables.get(name);
  if (images) return images;
  const n = width * height;
  images = new Int32Array(8 * n);
  for (const t of gridSymmetries(width, height)) {
    const permutation = pointPermutation(t, width, height);
    // A symmetry a grid keeps keeps its size, so an image is row-major with the same row length.
    for (let p = 0; p < n; p++) images[t * n + p] = (Math.floor(permutation[p] / width) * stride + (permutation[p] % width)) * states;
  }
  imageTables.set(name, images);
  return images;
}
