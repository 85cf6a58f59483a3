import { MERGE_FANOUT, decodeRow, encodeRows, gamesInRow, mergeSteps, nextMerge, postingOf, postingsInRow, shiftFor, sortedDistinct, tierOf } from '../../src/positions/postings.js';
import type { PlannedRun } from '../../src/positions/postings.js';

/** A small deterministic generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe('runs of postings', () => {
  // Games with ids far apart (a run merged from old and new writes) and buckets everywhere, edges included.
  const next = random(28);
  const games = Array.from({ length: 300 }, (_, i) => ({
    id: i < 150 ? 1 + i : 3_000_000_000 + i,
    buckets: [...new Set([0, 0xfffff, ...Array.from({ length: 40 }, () => Math.floor(next() * 2 ** 20))])],
  }));
  const pairs = games.flatMap((game) => game.buckets.map((bucket) => [bucket, game.id] as const));

  it('cut into rows by bucket range, each row is what a linear scan of the postings gives, in order', () => {
    const all = sortedDistinct(Float64Array.from(pairs.map(([bucket, id]) => postingOf(bucket, id))));
    expect(all.length).toBe(pairs.length);
    for (const shift of [0, 9, 12, shiftFor(all.length), 20]) {
      const rows = encodeRows(all, shift);
      // A byte a row; a posting: the bucket within the row's range in whole bytes, the game's offset in 1 to 4 (ids here span 3e9: 4).
      expect(rows.bytes.length).toBeLessThanOrEqual(rows.parts.length + all.length * (Math.ceil(shift / 8) + 4));
      const decoded = new Float64Array(all.length);
      const byPart = new Map<number, (readonly [number, number])[]>();
      for (const pair of pairs) {
        const part = pair[0] >>> shift;
        if (!byPart.has(part)) byPart.set(part, []);
        byPart.get(part)!.push(pair);
      }
      let at = 0;
      rows.parts.forEach((part, i) => {
        const bytes = rows.bytes.subarray(rows.offsets[i] - 1, rows.offsets[i] - 1 + rows.lengths[i]);
        const before = at;
        const row = { part, shift, base: rows.bases[i], games: bytes };
        expect(postingsInRow(row)).toBe(byPart.get(part)!.length);
        at = decodeRow(row, decoded, at);
        // Every posting of the row is in the row's range, and the base is its smallest game.
        const inRow = byPart.get(part)!;
        expect(at - before).toBe(inRow.length);
        expect(rows.bases[i]).toBe(Math.min(...inRow.map(([, id]) => id)));
        // The games of one bucket, by binary search, are those of the linear scan.
        for (const bucket of [part << shift, inRow[0][0], inRow[inRow.length - 1][0]]) {
          const found: number[] = [];
          gamesInRow(row, bucket, found);
          expect(found).toEqual(inRow.filter(([b]) => b === bucket).map(([, id]) => id).sort((a, b) => a - b));
        }
      });
      expect(rows.parts.length).toBe(byPart.size);
      expect([...decoded]).toEqual([...all]);
    }
  });

  it('a row of games close together takes fewer bytes a posting: 3 for a run of 5,000 games', () => {
    const run = Float64Array.from({ length: 5_000 * 200 }, (_, i) => postingOf((i * 7919) % 2 ** 20, 100_000 + (i % 5_000)));
    const sorted = sortedDistinct(run);
    const rows = encodeRows(sorted, shiftFor(sorted.length));
    expect(rows.bytes.length / sorted.length).toBeLessThan(3.01);
    const decoded = new Float64Array(sorted.length);
    let at = 0;
    rows.parts.forEach((part, i) => {
      at = decodeRow({ part, shift: rows.shift, base: rows.bases[i], games: rows.bytes.subarray(rows.offsets[i] - 1, rows.offsets[i] - 1 + rows.lengths[i]) }, decoded, at);
    });
    expect(decoded).toEqual(sorted);
  });

  it('a game holding a bucket twice (re-indexed, merged with its old run) holds it once', () => {
    const twice = Float64Array.from([postingOf(5, 9), postingOf(5, 9), postingOf(4, 9), postingOf(5, 8)]);
    expect([...sortedDistinct(twice)]).toEqual([postingOf(4, 9), postingOf(5, 8), postingOf(5, 9)]);
  });

  it('a row holds about 200 postings whatever the run\'s size', () => {
    for (const count of [1, 200, 1_000, 200_000, 20_000_000, 200_000_000]) {
      const perRow = count / 2 ** (20 - shiftFor(count));
      expect(perRow).toBeLessThanOrEqual(200);
      if (shiftFor(count) > 0 && count > 200) expect(perRow).toBeGreaterThan(100);
    }
  });
});

describe('merging runs', () => {
  const run = (id: number, postings: number, mergingInto: number | null = null): PlannedRun => ({ run: id, shift: shiftFor(postings), postings, mergingInto });

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

  it('resumes a merge cut short before starting another, and never takes its target as a source', () => {
    const runs = [run(1, 200, 9), run(2, 200, 9), run(9, 400), ...Array.from({ length: MERGE_FANOUT }, (_, i) => run(20 + i, 300))];
    const plan = nextMerge(runs)!;
    expect(plan.target).toBe(9);
    expect(plan.sources.map((source) => source.run)).toEqual([1, 2]);
  });

  it('steps through the whole bucket range, each step aligned to every row it touches', () => {
    const plan = { target: null, shift: shiftFor(3_000_000), postings: 3_000_000, sources: [{ run: 1, shift: 10 }, { run: 2, shift: 13 }] };
    const steps = mergeSteps(plan);
    expect(steps[0].low).toBe(0);
    expect(steps[steps.length - 1].high).toBe(2 ** 20 - 1);
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
