import { MERGE_FANOUT, POSTING_BITS, bucketOfPosting, decodeRow, encodeRows, gameOfPosting, gamesInRow, mergeSteps, nextMerge, postingsInRow, postingsOf, shiftFor, sortedByBucket, sortedDistinct, tierOf, wordsOf } from '../../src/indexes/positions/postings.js';
import { GatheredPostings } from '../../src/indexes/positions/postings.js';
import type { PlannedRun } from '../../src/indexes/positions/postings.js';
import { OPENING_ENTRIES, gatherLaterBuckets, laterBuckets } from '../../src/indexes/positions/position-rows.js';
import { seededRandom } from '../support/seeded-random.js';

const random = seededRandom;

/** The (bucket, game) pairs of postings, in their order. */
const pairsOf = (postings: BigUint64Array) => {
  const words = wordsOf(postings);
  return Array.from({ length: postings.length }, (_, i) => [bucketOfPosting(words, i), gameOfPosting(words, i)] as const);
};

/** Pairs sorted by bucket, then game, each once: the order a run holds, derived without the code under test. */
const sortedPairs = (pairs: readonly (readonly [number, number])[]) =>
  [...new Map(pairs.map((pair) => [`${pair[0]}/${pair[1]}`, pair])).values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

describe('postings in memory', () => {
  it('sort by bucket, then game, each once, for any bucket below 2^24 and game id below 2^40', () => {
    const next = random(24);
    const pairs: [number, number][] = [[0, 0], [2 ** 24 - 1, 2 ** 40 - 1], [2 ** 24 - 1, 0], [0, 2 ** 40 - 1], [1, 2 ** 32], [1, 2 ** 32 - 1], [7, 5], [7, 5]];
    for (let i = 0; i < 5_000; i++) pairs.push([Math.floor(next() * 2 ** 24), Math.floor(next() * 2 ** 40)], [Math.floor(next() * 16), Math.floor(next() * 16)]);
    expect(pairsOf(sortedDistinct(postingsOf(pairs)))).toEqual(sortedPairs(pairs));
  });

  it('sort the same, by buckets alone, when written game by game in ascending game id (a write\'s run), and sort any other order too', () => {
    const next = random(25);
    // Games in ascending id, some across the 2^32 boundary, each with its distinct buckets (a few shared with others, some repeated).
    const pairs: [number, number][] = [];
    let game = 1;
    for (let g = 0; g < 3_000; g++) {
      game += 1 + Math.floor(next() * (g === 1_500 ? 2 ** 33 : 50));
      const buckets = new Set(Array.from({ length: Math.floor(next() * 40) }, () => (next() < 0.5 ? Math.floor(next() * 64) : Math.floor(next() * 2 ** 24))));
      for (const bucket of buckets) pairs.push([bucket, game]);
    }
    pairs.push(pairs[pairs.length - 1]);
    expect(pairsOf(sortedByBucket(postingsOf(pairs)))).toEqual(sortedPairs(pairs));
    // The games out of order: sorted all the same.
    const shuffled = [...pairs].reverse();
    expect(pairsOf(sortedByBucket(postingsOf(shuffled)))).toEqual(sortedPairs(pairs));
    expect(pairsOf(sortedByBucket(postingsOf([])))).toEqual([]);
  });

  it("keep a game's bucket once when a write's run gathers it twice, apart (a position met again later in the game)", () => {
    const next = random(26);
    const pairs: [number, number][] = [];
    const gathered = new GatheredPostings();
    let game = 10;
    for (let g = 0; g < 2_000; g++) {
      game += 1 + Math.floor(next() * 30);
      // Repeats anywhere in the game's list, not next to each other.
      const buckets = Array.from({ length: Math.floor(next() * 30) }, () => (next() < 0.3 ? Math.floor(next() * 8) : Math.floor(next() * 2 ** 24)));
      gathered.reserve(buckets.length);
      for (const bucket of buckets) {
        gathered.push(game, bucket);
        pairs.push([bucket, game]);
      }
    }
    expect(pairs.length).toBeGreaterThan(new Set(pairs.map((pair) => `${pair[0]}/${pair[1]}`)).size);
    expect(pairsOf(sortedByBucket(gathered.all))).toEqual(sortedPairs(pairs));
  });

  it("gather a game's later positions' buckets as laterBuckets lists them, the openings' left out", () => {
    const next = random(27);
    const stride = 11;
    const gathered = new GatheredPostings();
    const expected: [number, number][] = [];
    for (let game = 1; game <= 300; game++) {
      const count = Math.floor(next() * 60);
      const entries = new Uint8Array(count * stride);
      const keys = Array.from({ length: 5 }, () => Array.from({ length: 8 }, () => Math.floor(next() * 256)));
      // Keys drawn from a few, so positions repeat, some among the openings only.
      for (let i = 0; i < count; i++) entries.set(keys[Math.floor(next() * keys.length)].concat(Array.from({ length: stride - 8 }, () => Math.floor(next() * 256))), i * stride);
      const track = { family: 'go' as const, stride, entries };
      gatherLaterBuckets(gathered, game, track);
      // The buckets by hand: the top 24 bits of each key past the openings, each once.
      const byHand = new Set<number>();
      for (let i = OPENING_ENTRIES; i < count; i++) byHand.add(((entries[i * stride] << 16) | (entries[i * stride + 1] << 8) | entries[i * stride + 2]) >>> 0);
      expect(new Set(laterBuckets(track))).toEqual(byHand);
      for (const bucket of byHand) expected.push([bucket, game]);
    }
    gatherLaterBuckets(gathered, 301, null);
    expect(pairsOf(sortedByBucket(gathered.all))).toEqual(sortedPairs(expected));
  });

  it('refuse a bucket or a game id out of range', () => {
    expect(() => postingsOf([[2 ** 24, 1]])).toThrow(RangeError);
    expect(() => postingsOf([[1, 2 ** 40]])).toThrow(RangeError);
  });
});

describe('runs of postings', () => {
  // Games with ids far apart (a run merged from old and new writes) and buckets everywhere, edges included.
  const next = random(28);
  const games = Array.from({ length: 300 }, (_, i) => ({
    id: i < 150 ? 1 + i : 3_000_000_000 + i,
    buckets: [...new Set([0, 2 ** POSTING_BITS - 1, ...Array.from({ length: 40 }, () => Math.floor(next() * 2 ** POSTING_BITS))])],
  }));
  const pairs = games.flatMap((game) => game.buckets.map((bucket) => [bucket, game.id] as const));

  it('cut into rows by bucket range, each row is what a linear scan of the postings gives, in order', () => {
    const all = sortedDistinct(postingsOf(pairs));
    expect(all.length).toBe(pairs.length);
    for (const shift of [0, 9, 12, shiftFor(all.length), 20, POSTING_BITS]) {
      const rows = encodeRows(all, shift);
      // A byte a row; a posting: the bucket within the row's range in whole bytes, the game's offset in 1 to 4 (ids here span 3e9: 4).
      expect(rows.bytes.length).toBeLessThanOrEqual(rows.parts.length + all.length * (Math.ceil(shift / 8) + 4));
      const decoded = new BigUint64Array(all.length);
      const byPart = new Map<number, (readonly [number, number])[]>();
      for (const pair of pairs) {
        const part = pair[0] >>> shift;
        if (!byPart.has(part)) byPart.set(part, []);
        byPart.get(part)!.push(pair);
      }
      // Per row, what it holds against the linear scan, compared once (an expect a row takes seconds at shift 0).
      const got: unknown[] = [];
      const want: unknown[] = [];
      let at = 0;
      rows.parts.forEach((part, i) => {
        const bytes = rows.bytes.subarray(rows.offsets[i] - 1, rows.offsets[i] - 1 + rows.lengths[i]);
        const before = at;
        const row = { part, shift, base: rows.bases[i], games: bytes };
        const inRow = byPart.get(part) ?? [];
        const counted = postingsInRow(row);
        at = decodeRow(row, decoded, at);
        // Every posting of the row is in the row's range, and the base is its smallest game.
        got.push([part, counted, at - before, rows.bases[i]]);
        want.push([part, inRow.length, inRow.length, Math.min(...inRow.map(([, id]) => id))]);
        // The games of one bucket, by binary search, are those of the linear scan.
        for (const bucket of [part << shift, inRow[0][0], inRow[inRow.length - 1][0]]) {
          const found: number[] = [];
          gamesInRow(row, bucket, found);
          got.push(found);
          want.push(inRow.filter(([b]) => b === bucket).map(([, id]) => id).sort((a, b) => a - b));
        }
      });
      expect(got).toEqual(want);
      expect(rows.parts.length).toBe(byPart.size);
      expect(pairsOf(decoded)).toEqual(sortedPairs(pairs));
    }
  });

  it('a row of games close together takes fewer bytes a posting: 4 for a run of 5,000 games', () => {
    const run = postingsOf(Array.from({ length: 5_000 * 200 }, (_, i) => [(i * 7919) % 2 ** POSTING_BITS, 100_000 + (i % 5_000)] as const));
    const sorted = sortedDistinct(run);
    const rows = encodeRows(sorted, shiftFor(sorted.length));
    // 2 bytes of the bucket within a row's range (a shift of 9 to 16 bits), 2 of the game's offset.
    expect(Math.ceil(rows.shift / 8)).toBe(2);
    expect(rows.bytes.length / sorted.length).toBeLessThan(4.01);
    const decoded = new BigUint64Array(sorted.length);
    let at = 0;
    rows.parts.forEach((part, i) => {
      at = decodeRow({ part, shift: rows.shift, base: rows.bases[i], games: rows.bytes.subarray(rows.offsets[i] - 1, rows.offsets[i] - 1 + rows.lengths[i]) }, decoded, at);
    });
    // The same bytes: every posting back as it was.
    expect(Buffer.from(decoded.buffer).equals(Buffer.from(sorted.buffer, sorted.byteOffset, sorted.byteLength))).toBe(true);
  });

  it('a game holding a bucket twice (re-indexed, merged with its old run) holds it once', () => {
    const twice = postingsOf([[5, 9], [5, 9], [4, 9], [5, 8]]);
    expect(pairsOf(sortedDistinct(twice))).toEqual([[4, 9], [5, 8], [5, 9]]);
  });

  it('a row holds about 200 postings whatever the run\'s size', () => {
    for (const bits of [20, POSTING_BITS]) {
      for (const count of [1, 200, 1_000, 200_000, 20_000_000, 200_000_000]) {
        const perRow = count / 2 ** (bits - shiftFor(count, bits));
        expect(perRow).toBeLessThanOrEqual(200);
        if (shiftFor(count, bits) > 0 && count > 200) expect(perRow).toBeGreaterThan(100);
      }
    }
  });
});

describe('merging runs', () => {
  const run = (id: number, postings: number, mergingInto: number | null = null, bits = POSTING_BITS): PlannedRun => ({ run: id, bits, shift: shiftFor(postings, bits), postings, mergingInto });

  it('merges a size class once it holds enough runs, the smallest first, and nothing before', () => {
    const small = Array.from({ length: MERGE_FANOUT - 1 }, (_, i) => run(i + 1, 200));
    expect(nextMerge(small)).toBeNull();
    const big = Array.from({ length: MERGE_FANOUT }, (_, i) => run(100 + i, 200_000));
    const plan = nextMerge([...small, run(50, 200), ...big])!;
    expect(plan.target).toBeNull();
    expect(plan.sources.map((source) => source.run)).toEqual([...small.map((r) => r.run), 50]);
    expect(plan.postings).toBe(200 * MERGE_FANOUT);
    // The merged run lands in a larger class than its sources'.
    expect(tierOf(plan.postings)).toBeGreaterThan(tierOf(200));
  });

  it('merges runs of one bucket width only: 20-bit runs with 20-bit runs', () => {
    const narrow = Array.from({ length: MERGE_FANOUT - 1 }, (_, i) => run(i + 1, 200, null, 20));
    const wide = Array.from({ length: MERGE_FANOUT - 1 }, (_, i) => run(20 + i, 200));
    // Fourteen runs of one size class, but neither width has eight.
    expect(nextMerge([...narrow, ...wide])).toBeNull();
    const plan = nextMerge([...narrow, ...wide, run(40, 300, null, 20)])!;
    expect(plan.bits).toBe(20);
    expect(plan.sources.map((source) => source.run)).toEqual([...narrow.map((r) => r.run), 40]);
    expect(plan.shift).toBe(shiftFor(plan.postings, 20));
  });

  it('resumes a merge cut short before starting another, and never takes its target as a source', () => {
    const runs = [run(1, 200, 9), run(2, 200, 9), run(9, 400), ...Array.from({ length: MERGE_FANOUT }, (_, i) => run(20 + i, 300))];
    const plan = nextMerge(runs)!;
    expect(plan.target).toBe(9);
    expect(plan.sources.map((source) => source.run)).toEqual([1, 2]);
  });

  it('steps through the whole bucket range, each step aligned to every row it touches', () => {
    const plan = { target: null, bits: POSTING_BITS, shift: shiftFor(3_000_000), postings: 3_000_000, sources: [{ run: 1, shift: 10 }, { run: 2, shift: 13 }] };
    const steps = mergeSteps(plan);
    expect(steps[0].low).toBe(0);
    expect(steps[steps.length - 1].high).toBe(2 ** POSTING_BITS - 1);
    for (let i = 1; i < steps.length; i++) expect(steps[i].low).toBe(steps[i - 1].high + 1);
    for (const { low, high } of steps) {
      for (const shift of [plan.shift, 10, 13]) {
        expect(low % 2 ** shift).toBe(0);
        expect((high + 1) % 2 ** shift).toBe(0);
      }
    }
    expect(steps.length).toBeGreaterThan(1);
  });
});
