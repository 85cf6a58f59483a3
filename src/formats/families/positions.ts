import { compose, inverse } from '../../rules/symmetry.js';
import type { SymmetricKeys } from '../../rules/zobrist.js';
import type { Transform } from '../../rules/symmetry.js';
import type { Family, GameIdentity, PositionTrack } from '../plugin.js';

export type { GameIdentity, PositionTrack };

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

/** Byte strings of equal length in byte order. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] - b[k];
  return 0;
}

/** The least of byte strings of equal length, in byte order (ties keep the first). */
function leastIndex(candidates: readonly Uint8Array[]): number {
  let best = 0;
  for (let i = 1; i < candidates.length; i++) if (compareBytes(candidates[i], candidates[best]) < 0) best = i;
  return best;
}

/**
 * How a family's replay asks for the game's identity ({@link GameIdentity}) beside its positions.
 *
 * The identity is the game written in the orientation in which its bytes are least, compared start
 * first and then ply by ply. Because the order compares from the front, the least writing of a
 * game's first n plies is the first n plies of its least writing: a broken-off copy writes the
 * beginning of the whole game's bytes, whatever orientation either file is in.
 */
export interface IdentityOptions {
  /** The board's symmetries (all of them: the start's own are found by comparing); absent: those that make the start's key canonical. */
  readonly transforms?: readonly Transform[];
  /** The start as seen in the board turned by `t`, the same length for every `t`; absent: the start's canonical key. */
  readonly start?: (transform: Transform) => Uint8Array;
  /**
   * Go and Dots, where a copy may hold the game with the colours swapped: the seat of the first
   * mover and how many seats there are. Each ply then carries its mover counted from that seat
   * (see {@link identityPly}), and the start should write its colours so too.
   */
  readonly seats?: { readonly first: number; readonly count: number };
  /**
   * The other families, whose movers take turns from the start (draughts): the seat of the side to
   * move at the start. A ply's mover is that seat plus the ply, modulo the seats; no ply writes it.
   */
  readonly firstMover?: number;
}

/** The plies of a game's identity so far: the orientations still least, and the bytes written. */
interface IdentityState {
  candidates: Transform[];
  bytes: Uint8Array;
  length: number;
  startLength: number;
  plies: number;
  readonly options: IdentityOptions;
}

/** Bytes of an identity's ply: the position move's bytes, Go and Dots point indexes widened by the mover (see {@link identityPly}). */
export function identityPlyLength(family: Family): number {
  return POSITION_MOVES[family];
}

/**
 * An identity's ply of Go or Dots, 16 bits big-endian: the point's index times 4 plus the mover
 * counted from the first mover's seat (0 the first mover, 1 the next…); a pass or grounding is
 * 0xfffc plus the mover. Other families write their position move's bytes as they are.
 */
export function identityPly(pointOrPass: number, relativeSeat: number): number {
  return (pointOrPass === PASS_POINT ? 0xfffc : pointOrPass << 2) | relativeSeat;
}

/**
 * Whether each ply of a family's identity writes its mover (Go and Dots: {@link identityPly}, the
 * low two bits of its second byte); in the others the movers take turns from the identity's first seat.
 */
export function moverInIdentityPly(family: Family): boolean {
  return family === 'go' || family === 'dots';
}

/** The transforms of each bit mask (bit t: transform t), lowest id first. */
const MASK_TRANSFORMS: readonly (readonly Transform[])[] = Array.from({ length: 256 }, (_, mask) =>
  ([0, 1, 2, 3, 4, 5, 6, 7] as Transform[]).filter((t) => mask & (1 << t)),
);

/** {@link symmetryGroupOf} by the mask of the transforms reaching a position, worked out once each. */
const GROUP_OF_MASK = new Map<number, number>();

function groupOfMask(mask: number): number {
  let group = GROUP_OF_MASK.get(mask);
  if (group === undefined) {
    group = symmetryGroupOf(MASK_TRANSFORMS[mask]);
    GROUP_OF_MASK.set(mask, group);
  }
  return group;
}

/** A ply as the identity writes it, seen through `t`, into `bytes`: `write`'s bytes, the mover counted from the first seat where seats are kept. */
function identityImage(
  write: (transform: Transform, into: Uint8Array) => void,
  t: Transform,
  bytes: Uint8Array,
  seats: IdentityOptions['seats'],
  relative: number,
): Uint8Array {
  write(t, bytes);
  if (seats) writeUint16(bytes, 0, identityPly((bytes[0] << 8) | bytes[1], relative));
  return bytes;
}

/**
 * Builds a {@link PositionTrack}: the family's replay tells it each position (its keys under the
 * board's symmetries) and then the move played from it; with {@link IdentityOptions}, the game's
 * identity too. A replay makes some hundred positions a game, each read to be stored: the usual
 * case (one transform reaches the canonical position, one orientation is left for the identity)
 * writes straight into the buffers, without allocating.
 */
export class PositionTrackWriter {
  readonly stride: number;
  private buffer: Uint8Array;
  private view: DataView;
  private count = 0;
  /** The position waiting for its move: its canonical key's halves, the transforms reaching it (a mask), its group. */
  private pending = false;
  private pendingHi = 0;
  private pendingLo = 0;
  private pendingMask = 0;
  private pendingGroup = 0;
  private identity: IdentityState | null = null;
  /** A move's bytes, reused. */
  private readonly scratch: Uint8Array;

  constructor(readonly family: Family, expectedPlies = 64, identity?: IdentityOptions) {
    this.stride = positionStride(family);
    this.buffer = new Uint8Array(this.stride * Math.max(1, expectedPlies + 1));
    this.view = new DataView(this.buffer.buffer);
    this.scratch = new Uint8Array(POSITION_MOVES[family]);
    if (identity) {
      const plyLength = identityPlyLength(family);
      this.identity = { candidates: [...(identity.transforms ?? [])], bytes: new Uint8Array(64 + plyLength * (expectedPlies + 1)), length: 0, startLength: -1, plies: 0, options: identity };
      if (identity.start) {
        const images = this.identity.candidates.map((t) => identity.start!(t));
        this.identityAppend(images);
      }
    }
  }

  /** The position now on the board, given by its keys under the board's symmetries. The one before it, if no move was given for it, is the last. */
  position(keys: SymmetricKeys): void {
    if (this.pending) this.write(this.lowest(), null);
    // One pass over the keys gives every least transform; the canonical one is the lowest of them.
    const mask = keys.leastMask();
    const best = lowestOf(mask);
    this.pending = true;
    this.pendingHi = keys.hi[best];
    this.pendingLo = keys.lo[best];
    this.pendingMask = mask;
    this.pendingGroup = (mask & (mask - 1)) === 0 ? 0 : groupOfMask(mask);
    const identity = this.identity;
    if (identity && identity.startLength < 0) {
      // No start given: the first position's canonical key, for the transforms that make it canonical.
      identity.candidates = [...MASK_TRANSFORMS[mask]];
      const bytes = new Uint8Array(8);
      const view = new DataView(bytes.buffer);
      view.setInt32(0, this.pendingHi);
      view.setInt32(4, this.pendingLo);
      this.identityAppend(identity.candidates.map(() => bytes));
    }
  }

  /**
   * The move played from the position last given: `encode(t)` writes it as seen in the board turned
   * by `t` into `into` (POSITION_MOVES bytes, zeroed). `seat`: Go and Dots, the mover's seat (0 black
   * or the first player), for the identity; `inIdentity` false for a ply the identity counts in its
   * start instead (setup a format plays as plies), or how the identity writes the ply where it is not
   * as the position writes it (Dots: relative to the first dot).
   */
  move(encode: (transform: Transform, into: Uint8Array) => void, seat?: number, inIdentity: boolean | ((transform: Transform, into: Uint8Array) => void) = true): void {
    if (!this.pending) throw new Error('a move before any position');
    const mask = this.pendingMask;
    if ((mask & (mask - 1)) === 0) {
      const scratch = this.scratch;
      clear(scratch);
      encode(this.lowest(), scratch);
      this.write(this.lowest(), scratch);
    } else {
      const transforms = MASK_TRANSFORMS[mask];
      const images = transforms.map((t) => {
        const bytes = new Uint8Array(this.scratch.length);
        encode(t, bytes);
        return bytes;
      });
      const best = leastIndex(images);
      this.write(transforms[best], images[best]);
    }
    const identity = this.identity;
    if (identity && inIdentity !== false) {
      const write = inIdentity === true ? encode : inIdentity;
      const seats = identity.options.seats;
      const relative = seats && seat !== undefined ? (((seat - seats.first) % seats.count) + seats.count) % seats.count : 0;
      // One orientation left (nearly every ply): written in the scratch bytes, nothing allocated.
      if (identity.candidates.length === 1) {
        const scratch = this.scratch;
        clear(scratch);
        this.identityWrite(identityImage(write, identity.candidates[0], scratch, seats, relative));
      } else {
        this.identityAppend(identity.candidates.map((t) => identityImage(write, t, new Uint8Array(this.scratch.length), seats, relative)));
      }
      identity.plies++;
    }
  }

  /** The lowest transform reaching the pending position. */
  private lowest(): Transform {
    return lowestOf(this.pendingMask);
  }

  /** Appends the least of the candidates' images and keeps the candidates that give it. */
  private identityAppend(images: readonly Uint8Array[]): void {
    const identity = this.identity!;
    const least = images[leastIndex(images)];
    identity.candidates = identity.candidates.filter((_, i) => compareBytes(images[i], least) === 0);
    this.identityWrite(least);
    if (identity.startLength < 0) identity.startLength = identity.length;
  }

  private identityWrite(bytes: Uint8Array): void {
    const identity = this.identity!;
    if (identity.length + bytes.length > identity.bytes.length) {
      const grown = new Uint8Array(Math.max(identity.bytes.length * 2, identity.length + bytes.length));
      grown.set(identity.bytes.subarray(0, identity.length));
      identity.bytes = grown;
    }
    copyInto(identity.bytes, bytes, identity.length);
    identity.length += bytes.length;
  }

  /** The identity written so far, or undefined when none was asked for (or no position came). */
  private identityOf(): GameIdentity | undefined {
    const identity = this.identity;
    if (!identity || identity.startLength < 0 || identity.candidates.length === 0) return undefined;
    return {
      sequence: identity.bytes.slice(0, identity.length),
      startLength: identity.startLength,
      plyLength: identityPlyLength(this.family),
      plies: identity.plies,
      transforms: [...identity.candidates],
      firstSeat: identity.options.seats?.first ?? identity.options.firstMover ?? null,
    };
  }

  /** Entries so far, counting a position still waiting for its move. */
  get length(): number {
    return this.count + (this.pending ? 1 : 0);
  }

  finish(extra?: { readonly signature?: string | null; readonly endedByRule?: boolean }): PositionTrack {
    if (this.pending) this.write(this.lowest(), null);
    const identity = this.identityOf();
    const entries = this.buffer.slice(0, this.count * this.stride);
    return identity
      ? { family: this.family, stride: this.stride, entries, identity: extra ? { ...identity, ...extra } : identity }
      : { family: this.family, stride: this.stride, entries };
  }

  /** Writes the pending position's entry, reached by `transform`, with its move (null: none). */
  private write(transform: Transform, move: Uint8Array | null): void {
    this.pending = false;
    const at = this.count * this.stride;
    if (at + this.stride > this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
      this.view = new DataView(grown.buffer);
    }
    this.view.setInt32(at, this.pendingHi);
    this.view.setInt32(at + 4, this.pendingLo);
    this.buffer[at + 8] = transform | (this.pendingGroup << 3);
    if (move) copyInto(this.buffer, move, at + ENTRY_HEAD);
    else for (let i = at + ENTRY_HEAD; i < at + this.stride; i++) this.buffer[i] = NO_MOVE;
    this.count++;
  }
}

/** The lowest transform of a non-empty mask (bit t: transform t). */
function lowestOf(mask: number): Transform {
  return (31 - Math.clz32(mask & -mask)) as Transform;
}

/*
 * A move's bytes are two to four: a loop writes them where `fill` and `set` are calls into the
 * runtime, which cost more than the bytes (they were a tenth of the writer's time in a profile of
 * the import's reading).
 */
function clear(bytes: Uint8Array): void {
  for (let i = 0; i < bytes.length; i++) bytes[i] = 0;
}

function copyInto(into: Uint8Array, bytes: Uint8Array, at: number): void {
  for (let i = 0; i < bytes.length; i++) into[at + i] = bytes[i];
}

/** Writes a 16-bit number big-endian. */
export function writeUint16(into: Uint8Array, at: number, value: number): void {
  into[at] = value >>> 8;
  into[at + 1] = value & 0xff;
}
