import { compose, inverse } from '../../rules/symmetry.js';
import type { Transform } from '../../rules/symmetry.js';
import type { Family, PositionTrack } from '../plugin.js';

export type { PositionTrack };

// The symmetries of a board, as the archive's position routes name and apply them.
export { TRANSFORM_NAMES, apply, compose, inverse, transformName } from '../../rules/symmetry.js';
export type { Transform, TransformName } from '../../rules/symmetry.js';

/*
 * The entries of a {@link PositionTrack} (the format contract's type), `stride` bytes each:
 *
 * | bytes | what |
 * |---|---|
 * | 0–7 | the position's canonical key (`src/rules/zobrist.ts`), unsigned, big-endian |
 * | 8 | bits 0–2: the transform that turns the game's board into the canonical orientation; bits 3–6: the canonical position's own symmetries, as an index into `SYMMETRY_GROUPS` |
 * | 9… | the move played from the position, in the canonical orientation, in the family's encoding (`POSITION_MOVES`); all bytes 0xff after the last ply |
 *
 * A symmetric position is reached by several transforms; of those, the entry names the one under
 * which the move played has the least encoding, so games that play the same move up to the
 * position's own symmetry (the 4-4 point in any corner of the empty board) store the same bytes.
 */

/** How many bytes a family's moves take in an entry, and how they are written (the routes read them back). */
export const POSITION_MOVES = {
  /** The point's index `y * size + x`, big-endian; 0xfffe a pass. */
  go: 2,
  /** The point's index `row * width + col`, big-endian; 0xfffe a pass or grounding. */
  dots: 2,
  /** The number of squares (+ 0x80 for a capture), then the squares (0–63, `row * 8 + column`): from, each landing; the rest 0. */
  checkers: 14,
  /** From and to: x, y, x, y, each big-endian 16 bits (the board's own coordinates). */
  'peg-solitaire': 8,
} as const satisfies Record<Family, number>;

export const ENTRY_HEAD = 9;
export const NO_MOVE = 0xff;
/** Go and Dots: the move bytes of a pass. */
export const PASS_POINT = 0xfffe;

export function positionStride(family: Family): number {
  return ENTRY_HEAD + POSITION_MOVES[family];
}

/**
 * The groups of symmetries a position can have, as bit masks of transform ids (bit t for transform
 * t): every set of transforms that holds the identity and is closed under composition — the ten
 * subgroups of the square's eight symmetries. A position's own symmetries are one of them.
 */
export const SYMMETRY_GROUPS: readonly number[] = Array.from({ length: 256 }, (_, mask) => mask).filter((mask) => {
  if ((mask & 1) === 0) return false;
  for (let a = 0; a < 8; a++) {
    if (!(mask & (1 << a))) continue;
    for (let b = 0; b < 8; b++) if (mask & (1 << b) && !(mask & (1 << compose(a as Transform, b as Transform)))) return false;
  }
  return true;
});

/** The transforms of a group of {@link SYMMETRY_GROUPS}. */
export function groupTransforms(index: number): Transform[] {
  const mask = SYMMETRY_GROUPS[index] ?? 1;
  return ([0, 1, 2, 3, 4, 5, 6, 7] as Transform[]).filter((t) => mask & (1 << t));
}

/** The index in {@link SYMMETRY_GROUPS} of the canonical position's symmetries, given the transforms that reach it from a position. */
export function symmetryGroupOf(leastTransforms: readonly Transform[]): number {
  const back = inverse(leastTransforms[0]);
  let mask = 0;
  for (const t of leastTransforms) mask |= 1 << compose(t, back);
  const index = SYMMETRY_GROUPS.indexOf(mask);
  if (index < 0) throw new Error(`transforms ${leastTransforms.join(',')} do not make a group`);
  return index;
}

/** The least of byte strings, in byte order (ties keep the first). */
function leastIndex(candidates: readonly Uint8Array[]): number {
  let best = 0;
  for (let i = 1; i < candidates.length; i++) {
    const a = candidates[i];
    const b = candidates[best];
    for (let k = 0; k < a.length; k++) {
      if (a[k] !== b[k]) {
        if (a[k] < b[k]) best = i;
        break;
      }
    }
  }
  return best;
}

/**
 * Builds a {@link PositionTrack}: the family's replay tells it each position (its canonical key and
 * the transforms that reach it) and then the move played from it.
 */
export class PositionTrackWriter {
  readonly stride: number;
  private buffer: Uint8Array;
  private view: DataView;
  private count = 0;
  private pending: { key: bigint; transforms: readonly Transform[]; group: number } | null = null;

  constructor(readonly family: Family, expectedPlies = 64) {
    this.stride = positionStride(family);
    this.buffer = new Uint8Array(this.stride * Math.max(1, expectedPlies + 1));
    this.view = new DataView(this.buffer.buffer);
  }

  /** The position now on the board. The one before it, if no move was given for it, is the last. */
  position(key: bigint, transforms: readonly Transform[]): void {
    if (this.pending) this.write(this.pending, this.pending.transforms[0], null);
    this.pending = { key, transforms, group: transforms.length === 1 ? 0 : symmetryGroupOf(transforms) };
  }

  /**
   * The move played from the position last given: `encode(t)` writes it as seen in the board turned
   * by `t` into `into` (POSITION_MOVES bytes, zeroed).
   */
  move(encode: (transform: Transform, into: Uint8Array) => void): void {
    const pending = this.pending;
    if (!pending) throw new Error('a move before any position');
    this.pending = null;
    const size = POSITION_MOVES[this.family];
    const images = pending.transforms.map((t) => {
      const bytes = new Uint8Array(size);
      encode(t, bytes);
      return bytes;
    });
    const best = leastIndex(images);
    this.write(pending, pending.transforms[best], images[best]);
  }

  /** Entries so far, counting a position still waiting for its move. */
  get length(): number {
    return this.count + (this.pending ? 1 : 0);
  }

  finish(): PositionTrack {
    if (this.pending) this.write(this.pending, this.pending.transforms[0], null);
    this.pending = null;
    return { family: this.family, stride: this.stride, entries: this.buffer.slice(0, this.count * this.stride) };
  }

  private write(position: { readonly key: bigint; readonly group: number }, transform: Transform, move: Uint8Array | null): void {
    const at = this.count * this.stride;
    if (at + this.stride > this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
      this.view = new DataView(grown.buffer);
    }
    this.view.setBigUint64(at, BigInt.asUintN(64, position.key));
    this.buffer[at + 8] = transform | (position.group << 3);
    if (move) this.buffer.set(move, at + ENTRY_HEAD);
    else this.buffer.fill(NO_MOVE, at + ENTRY_HEAD, at + this.stride);
    this.count++;
  }
}

/** Writes a 16-bit number big-endian. */
export function writeUint16(into: Uint8Array, at: number, value: number): void {
  into[at] = value >>> 8;
  into[at + 1] = value & 0xff;
}
