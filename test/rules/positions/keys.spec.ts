import { IDENTITY } from '../../../src/rules/symmetry.js';
import { SymmetricKeys, fromSignedKey, halvesOf, keyHex, keyOf, toSignedKey, zobristTable, zobristValue } from '../../../src/rules/zobrist.js';

/*
 * The generator behind every position key: splitmix64 from the project's fixed seed, made with 32-bit
 * halves in src/rules/zobrist.ts, against splitmix64 written here over bigint from its definition.
 */
const MASK = (1n << 64n) - 1n;
const GAMMA = 0x9e3779b97f4a7c15n;
const SEED = 0x7ab1a2e50c0ffee5n; // stored keys depend on it: it never changes

function splitmix64(seed: bigint, count: number, from = 0): bigint[] {
  let state = (seed + BigInt(from) * GAMMA) & MASK;
  const out: bigint[] = [];
  for (let i = 0; i < count; i++) {
    state = (state + GAMMA) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    out.push(z ^ (z >> 31n));
  }
  return out;
}

describe('the key generator', () => {
  it('is splitmix64 as published (the reference here, checked on its known first outputs from seed 0)', () => {
    expect(splitmix64(0n, 2).map((v) => v.toString(16))).toEqual(['e220a8397b1dcdaf', '6e789e6aa1b965f4']);
  });

  it('gives the reference outputs from the fixed seed, in a table and one at a time', () => {
    const expected = splitmix64(SEED, 3000);
    const table = zobristTable(0, 3000);
    expect(Array.from({ length: 3000 }, (_, i) => keyOf(table.hi[i], table.lo[i]))).toEqual(expected);
    for (const n of [0, 1, 17, 2999]) expect(keyOf(...zobristValue(n))).toBe(expected[n]);
    const later = zobristTable(1 << 20, 50);
    expect(Array.from({ length: 50 }, (_, i) => keyOf(later.hi[i], later.lo[i]))).toEqual(splitmix64(SEED, 50, 1 << 20));
  });

  it('reaches far into the sequence (counters past 2^32, as peg solitaire uses)', () => {
    for (const n of [2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 40, 2 ** 40 + 123_456_789, 2 ** 52 + 5]) {
      expect(keyOf(...zobristValue(n))).toBe(splitmix64(SEED, 1, n)[0]);
    }
  });

  it('gives 100,000 different values', () => {
    const { hi, lo } = zobristTable(0, 100_000);
    const seen = new Set<bigint>();
    for (let i = 0; i < hi.length; i++) seen.add(keyOf(hi[i], lo[i]));
    expect(seen.size).toBe(100_000);
  });
});

describe('keys as numbers', () => {
  it('maps unsigned keys one to one onto PostgreSQL bigint (signed 64-bit) and back', () => {
    const cases: [bigint, bigint][] = [
      [0n, 0n],
      [1n, 1n],
      [(1n << 63n) - 1n, (1n << 63n) - 1n],
      [1n << 63n, -(1n << 63n)],
      [MASK, -1n],
      [0xe220a8397b1dcdafn, 0xe220a8397b1dcdafn - (1n << 64n)],
    ];
    for (const [unsigned, signed] of cases) {
      expect(toSignedKey(unsigned)).toBe(signed);
      expect(fromSignedKey(signed)).toBe(unsigned);
      expect(signed >= -(1n << 63n) && signed < 1n << 63n).toBe(true);
    }
  });

  it('writes a key as 16 hex digits and splits it into halves', () => {
    expect(keyHex(0xabn)).toBe('00000000000000ab');
    expect(keyHex(-1n)).toBe('ffffffffffffffff');
    expect(halvesOf(0x8000000100000002n)).toEqual([0x80000001, 2]);
    expect(keyOf(-1, -2)).toBe(0xfffffffffffffffen);
  });

  it('picks the least key as unsigned 64-bit numbers (high halves with the top bit set are large), the lowest transform on a tie', () => {
    const keys = new SymmetricKeys([0, 2, 4, 5]);
    keys.hi[0] = -1; // 0xffffffff: the largest, though negative as an int32
    keys.hi[2] = 5;
    keys.lo[2] = -2; // 0xfffffffe
    keys.hi[4] = 5;
    keys.lo[4] = 7;
    keys.hi[5] = 0x7fffffff;
    keys.hi[1] = 0; // not one of the board's transforms: never chosen
    expect(keys.canonical()).toEqual({ key: 0x0000000500000007n, transform: 4 });
    keys.lo[5] = 7;
    keys.hi[5] = 5;
    expect(keys.canonical()).toEqual({ key: 0x0000000500000007n, transform: 4 });
    expect(keys.key(1)).toBeNull();
    expect(keys.key(IDENTITY)).toBe(0xffffffff00000000n);
    const all = keys.keys();
    expect(all.byTransform).toEqual([0xffffffff00000000n, null, 0x5fffffffen, null, 0x500000007n, 0x500000007n, null, null]);
    expect(all.exact).toBe(0xffffffff00000000n);
  });
});
