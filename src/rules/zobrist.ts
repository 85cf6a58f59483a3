import { IDENTITY, Transform } from './symmetry.js';

/**
 * 64-bit position keys by Zobrist hashing: every (point, what stands on it) and every other fact of
 * a position (the side to move, the board's size) has a fixed pseudo-random 64-bit value, and a
 * position's key is the XOR of the values of what it holds. Changing one point changes the key by
 * two XORs (the old content out, the new in), so a replay keeps the key up to date cheaply.
 *
 * The values are the outputs of splitmix64 (a public, well-tested 64-bit generator: a counter that
 * grows by a fixed odd constant, passed through a mixing function) from one fixed seed. Output `n`
 * depends on `n` alone, so any value can be made on its own ({@link zobristValue}) and the tables
 * of the families are just those values for a range of `n`, made once. The arithmetic runs on two
 * unsigned 32-bit halves with `Math.imul`: the same numbers as the textbook form over `bigint`, which
 * the tests compare with, and faster (`bench/position-keys.ts` measures both).
 *
 * Keys are kept as two 32-bit halves while a position is hashed; the public API hands them out as an
 * unsigned 64-bit `bigint` (0 … 2^64-1). PostgreSQL's `bigint` is signed: {@link toSignedKey} and
 * {@link fromSignedKey} map between the two ranges one to one.
 */

/** The generator's seed (fixed forever: stored keys depend on it). Any 64-bit value would do. */
const SEED_HI = 0x7ab1_a2e5;
const SEED_LO = 0x0c0f_fee5;
/** splitmix64's increment, 2^64 divided by the golden ratio, and its two multipliers. */
const GAMMA_HI = 0x9e37_79b9;
const GAMMA_LO = 0x7f4a_7c15;
const M1_HI = 0xbf58_476d;
const M1_LO = 0x1ce4_e5b9;
const M2_HI = 0x94d0_49bb;
const M2_LO = 0x1331_11eb;

/** High 32 bits of the 64-bit product of two unsigned 32-bit numbers (16-bit pieces stay exact in doubles). */
function mulHigh(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const carry = ((p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff)) >>> 16;
  return (a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + carry) >>> 0;
}

/** Output of the last {@link mix}/{@link zobristValue}: high and low halves, unsigned. */
let outHi = 0;
let outLo = 0;

/** splitmix64's mixing function of the state (hi, lo), into outHi/outLo. */
function mix(hi: number, lo: number): void {
  // z ^= z >>> 30; z *= M1
  lo = (lo ^ ((lo >>> 30) | (hi << 2))) >>> 0;
  hi = (hi ^ (hi >>> 30)) >>> 0;
  let h = (mulHigh(lo, M1_LO) + Math.imul(hi, M1_LO) + Math.imul(lo, M1_HI)) >>> 0;
  let l = Math.imul(lo, M1_LO) >>> 0;
  // z ^= z >>> 27; z *= M2
  l = (l ^ ((l >>> 27) | (h << 5))) >>> 0;
  h = (h ^ (h >>> 27)) >>> 0;
  hi = (mulHigh(l, M2_LO) + Math.imul(h, M2_LO) + Math.imul(l, M2_HI)) >>> 0;
  lo = Math.imul(l, M2_LO) >>> 0;
  // z ^= z >>> 31
  outLo = (lo ^ ((lo >>> 31) | (hi << 1))) >>> 0;
  outHi = (hi ^ (hi >>> 31)) >>> 0;
}

/** The generator's state before output `n` (seed + (n + 1) · gamma mod 2^64), left in stateHi/stateLo. */
let stateHi = 0;
let stateLo = 0;

function stateBefore(n: number): void {
  const count = n + 1;
  const cLo = count >>> 0;
  const cHi = Math.floor(count / 0x1_0000_0000) >>> 0;
  const pLo = Math.imul(cLo, GAMMA_LO) >>> 0;
  const pHi = (mulHigh(cLo, GAMMA_LO) + Math.imul(cHi, GAMMA_LO) + Math.imul(cLo, GAMMA_HI)) >>> 0;
  const lo = pLo + SEED_LO;
  stateHi = (pHi + SEED_HI + (lo > 0xffff_ffff ? 1 : 0)) >>> 0;
  stateLo = lo >>> 0;
}

/** The state one step on: + gamma mod 2^64. */
function step(): void {
  const lo = stateLo + GAMMA_LO;
  stateHi = (stateHi + GAMMA_HI + (lo > 0xffff_ffff ? 1 : 0)) >>> 0;
  stateLo = lo >>> 0;
}

/**
 * Output `n` (0-based) of splitmix64 from the fixed seed, as `[high, low]` unsigned 32-bit halves.
 * `n` is a whole number below 2^53.
 */
export function zobristValue(n: number): [number, number] {
  stateBefore(n);
  mix(stateHi, stateLo);
  return [outHi, outLo];
}

/**
 * Outputs `first` … `first + count - 1` as two arrays of halves (signed 32-bit, as typed arrays
 * hold them; only the bits matter), made in sequence as the generator makes them.
 */
export function zobristTable(first: number, count: number): { readonly hi: Int32Array; readonly lo: Int32Array } {
  const hi = new Int32Array(count);
  const lo = new Int32Array(count);
  stateBefore(first);
  for (let i = 0; i < count; i++) {
    mix(stateHi, stateLo);
    hi[i] = outHi;
    lo[i] = outLo;
    step();
  }
  return { hi, lo };
}

/*
 * Where each family's values start in the generator's sequence: disjoint ranges, so no two facts of
 * any two families share a value. Ranges are far apart; each family module lays out its own.
 */
export const GO_VALUES = 0;
export const DOTS_VALUES = 1 << 20;
export const CHECKERS_VALUES = 1 << 21;
/** Peg solitaire values are made one at a time from (x, y): a range of 2^40 from here. */
export const PEG_VALUES = 2 ** 40;

const TWO_32 = 0x1_0000_0000;

/** The unsigned 64-bit key of two halves (each taken as its 32 bits, signed or not). */
export function keyOf(hi: number, lo: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

/** A key in PostgreSQL's signed `bigint` range (-2^63 … 2^63-1): the same 64 bits read as two's complement. */
export function toSignedKey(key: bigint): bigint {
  return BigInt.asIntN(64, key);
}

/** The unsigned key of a signed one stored by {@link toSignedKey}. */
export function fromSignedKey(signed: bigint): bigint {
  return BigInt.asUintN(64, signed);
}

/** A key as 16 lower-case hexadecimal digits. */
export function keyHex(key: bigint): string {
  return BigInt.asUintN(64, key).toString(16).padStart(16, '0');
}

/** Whether (aHi, aLo) < (bHi, bLo) as unsigned 64-bit numbers. */
function below(aHi: number, aLo: number, bHi: number, bLo: number): boolean {
  const ah = aHi >>> 0;
  const bh = bHi >>> 0;
  return ah < bh || (ah === bh && aLo >>> 0 < bLo >>> 0);
}

/** A position's key up to symmetry, and the transform that reaches it. */
export interface CanonicalKey {
  /** The least (unsigned) of the keys of the position turned by each of the board's symmetries. */
  readonly key: bigint;
  /** The transform that turns the position into the one whose key is `key`; the lowest id on a tie. */
  readonly transform: Transform;
}

/** A position's keys: as it stands, under each symmetry of its board, and the canonical one. */
export interface PositionKeys {
  /** The key of the position as it stands (the identity's). */
  readonly exact: bigint;
  /** By transform id: the key of the position turned by it, null for a transform the board does not allow. */
  readonly byTransform: readonly (bigint | null)[];
  readonly canonical: CanonicalKey;
}

/**
 * Eight running keys, one per transform, of which a board uses some ({@link transforms}): the
 * key of the position as the transform turns it. Families XOR values into them; this holds the
 * halves and reads the keys out.
 */
export class SymmetricKeys {
  /** Halves by transform id; entries of transforms the board does not allow stay 0. */
  readonly hi = new Int32Array(8);
  readonly lo = new Int32Array(8);

  /** `transforms` in ascending order of id, as every list of symmetries here is: on a tie the lowest id is the canonical one. */
  constructor(readonly transforms: readonly Transform[]) {}

  /** XORs a value that every transform leaves as it is (the side to move, the board's size) into every key. */
  toggleInvariant(hi: number, lo: number): void {
    // Indexed, as every loop of the replay's hot path: a for-of here allocated an iterator result a transform and a ply.
    const transforms = this.transforms;
    for (let i = 0; i < transforms.length; i++) {
      const t = transforms[i];
      this.hi[t] ^= hi;
      this.lo[t] ^= lo;
    }
  }

  /**
   * XORs one point's value into every transform's key, each at the point's image under that
   * transform: `images` as pointImages (symmetry.ts) makes them for a board of `points` points, `offset`
   * the point's state within its values, `valueHi`/`valueLo` the table's halves.
   */
  togglePoint(images: Int32Array, points: number, point: number, offset: number, valueHi: Int32Array, valueLo: Int32Array): void {
    const { hi, lo, transforms } = this;
    for (let i = 0; i < transforms.length; i++) {
      const t = transforms[i];
      const value = images[t * points + point] + offset;
      hi[t] ^= valueHi[value];
      lo[t] ^= valueLo[value];
    }
  }

  /** XORs generator output `n` (see {@link zobristValue}) into the key of one transform. */
  toggleValue(transform: Transform, n: number): void {
    stateBefore(n);
    mix(stateHi, stateLo);
    this.hi[transform] ^= outHi;
    this.lo[transform] ^= outLo;
  }

  clear(): void {
    this.hi.fill(0);
    this.lo.fill(0);
  }

  copyFrom(other: SymmetricKeys): void {
    this.hi.set(other.hi);
    this.lo.set(other.lo);
  }

  /** The key under `transform` (the identity by default); null when the board does not allow it. */
  key(transform: Transform = IDENTITY): bigint | null {
    return this.transforms.includes(transform) ? keyOf(this.hi[transform], this.lo[transform]) : null;
  }

  /** The transform whose key is least (lowest id on a tie). */
  canonicalTransform(): Transform {
    const { hi, lo, transforms } = this;
    let best = transforms[0];
    for (let i = 1; i < transforms.length; i++) {
      const t = transforms[i];
      if (below(hi[t], lo[t], hi[best], lo[best])) best = t;
    }
    return best;
  }

  canonical(): CanonicalKey {
    const transform = this.canonicalTransform();
    return { key: keyOf(this.hi[transform], this.lo[transform]), transform };
  }

  /**
   * Every transform whose key is the least, lowest id first: more than one when the position is
   * symmetric (the empty board: all of them). A move played from the position has one image per
   * such transform, all the same move up to the position's own symmetry.
   */
  leastTransforms(): Transform[] {
    const { hi, lo } = this;
    const best = this.canonicalTransform();
    return this.transforms.filter((t) => hi[t] === hi[best] && lo[t] === lo[best]);
  }

  /** {@link leastTransforms} as a bit mask (bit t: transform t), without making a list. */
  leastMask(): number {
    // One pass (a replay asks this of every position): the least so far, and every transform reaching it.
    const { hi, lo, transforms } = this;
    let best = transforms[0];
    let mask = 1 << best;
    for (let i = 1; i < transforms.length; i++) {
      const t = transforms[i];
      const h = hi[t];
      const l = lo[t];
      if (h === hi[best] && l === lo[best]) mask |= 1 << t;
      else if (below(h, l, hi[best], lo[best])) {
        best = t;
        mask = 1 << t;
      }
    }
    return mask;
  }

  keys(): PositionKeys {
    const byTransform: (bigint | null)[] = [null, null, null, null, null, null, null, null];
    for (const t of this.transforms) byTransform[t] = keyOf(this.hi[t], this.lo[t]);
    return { exact: byTransform[IDENTITY]!, byTransform, canonical: this.canonical() };
  }
}

/** A whole number as a 64-bit key's halves, for tests and tools: `[high, low]`. */
export function halvesOf(key: bigint): [number, number] {
  const unsigned = BigInt.asUintN(64, key);
  return [Number(unsigned / BigInt(TWO_32)) >>> 0, Number(unsigned % BigInt(TWO_32)) >>> 0];
}
