import { BUCKET_BITS } from './position-rows.js';

/**
 * The postings of the later positions' buckets (`position_postings`, migrations/1765600000000):
 * which games hold a key whose top {@link BUCKET_BITS} bits are a given bucket. They are written a
 * run at a time — the games of one write statement, sorted — and runs of a size are merged into one
 * in the background (`PostingsCompactor`), as a log-structured merge tree: a write costs a sort and
 * a few rows instead of an index entry per posting at a random place, and a search reads one row
 * per run.
 *
 * A run is cut into rows by bucket range: row `part` of a run with `shift` s holds the postings of
 * buckets `part << s` to `((part + 1) << s) - 1`, the shift chosen so a row holds about
 * {@link ROW_POSTINGS} postings. Each posting is {@link POSTING_BYTES} bytes: the bucket (3 bytes)
 * and the game's id less the row's `base`, its smallest id (4 bytes), big-endian, in the order of
 * (bucket, game).
 *
 * In memory a posting is one number, `bucket * 2^33 + game id` (exact: 20 + 33 bits), so a run's
 * postings sort as a Float64Array.
 */
export const POSTING_BYTES = 7;
/** About how many postings a row holds: about 1.4 kB, kept in the row (no TOAST). */
export const ROW_POSTINGS = 200;
/** Runs whose posting counts share a power of {@link MERGE_FANOUT} are merged once there are that many of them. */
export const MERGE_FANOUT = 8;
const GAME_SPAN = 2 ** 33;

/** The posting of a game's bucket, as a number that sorts by (bucket, game). */
export function postingOf(bucket: number, game: number): number {
  return bucket * GAME_SPAN + game;
}

export function bucketOfPosting(posting: number): number {
  return Math.floor(posting / GAME_SPAN);
}

export function gameOfPosting(posting: number): number {
  return posting % GAME_SPAN;
}

/** The shift that cuts `count` postings into rows of about {@link ROW_POSTINGS}. */
export function shiftFor(count: number): number {
  const parts = Math.max(1, count / ROW_POSTINGS);
  return Math.max(0, BUCKET_BITS - Math.ceil(Math.log2(parts)));
}

/** The size class of a run of `count` postings: runs of one class are merged together. */
export function tierOf(count: number): number {
  return Math.floor(Math.log(Math.max(1, count)) / Math.log(MERGE_FANOUT));
}

/** A run's rows, ready for one statement: part numbers, bases, and each row's bytes in `bytes` at `offsets`/`lengths` (1-based offsets, as SQL's substring takes them). */
export interface EncodedRows {
  readonly shift: number;
  readonly parts: number[];
  readonly bases: number[];
  readonly offsets: number[];
  readonly lengths: number[];
  readonly bytes: Buffer;
}

/**
 * Postings sorted and without repeats (sorts `postings` in place, returns the distinct prefix).
 * A game indexed twice (re-indexed, its rows merged with the old run) holds a bucket once.
 */
export function sortedDistinct(postings: Float64Array): Float64Array {
  postings.sort();
  let kept = 0;
  for (let i = 0; i < postings.length; i++) {
    if (i === 0 || postings[i] !== postings[kept - 1]) postings[kept++] = postings[i];
  }
  return postings.subarray(0, kept);
}

/** Sorted, distinct postings as the rows of a run with the given shift. */
export function encodeRows(sorted: Float64Array, shift: number): EncodedRows {
  const bytes = Buffer.allocUnsafe(sorted.length * POSTING_BYTES);
  const rows: EncodedRows = { shift, parts: [], bases: [], offsets: [], lengths: [], bytes };
  let at = 0;
  for (let start = 0; start < sorted.length; ) {
    const part = bucketOfPosting(sorted[start]) >>> shift;
    let end = start;
    let base = Number.MAX_SAFE_INTEGER;
    while (end < sorted.length && bucketOfPosting(sorted[end]) >>> shift === part) {
      base = Math.min(base, gameOfPosting(sorted[end]));
      end++;
    }
    rows.parts.push(part);
    rows.bases.push(base);
    rows.offsets.push(at + 1);
    rows.lengths.push((end - start) * POSTING_BYTES);
    for (let i = start; i < end; i++) {
      const bucket = bucketOfPosting(sorted[i]);
      const offset = gameOfPosting(sorted[i]) - base;
      if (offset >= 2 ** 32) throw new RangeError(`game ids ${base} and ${base + offset} are too far apart for one row of postings`);
      bytes[at] = bucket >>> 16;
      bytes[at + 1] = (bucket >>> 8) & 0xff;
      bytes[at + 2] = bucket & 0xff;
      bytes.writeUInt32BE(offset, at + 3);
      at += POSTING_BYTES;
    }
    start = end;
  }
  return rows;
}

/** The postings of a row, appended to `into` from `at`; the index after the last. */
export function decodeRow(base: number, bytes: Uint8Array, into: Float64Array, at: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i + POSTING_BYTES <= bytes.length; i += POSTING_BYTES) {
    into[at++] = postingOf((bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2], base + view.getUint32(i + 3));
  }
  return at;
}

/** The games of a row holding `bucket`: the row is sorted by bucket, so a binary search finds the first. */
export function gamesInRow(base: number, bytes: Uint8Array, bucket: number, into: number[]): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bucketAt = (index: number) => (bytes[index * POSTING_BYTES] << 16) | (bytes[index * POSTING_BYTES + 1] << 8) | bytes[index * POSTING_BYTES + 2];
  const count = Math.floor(bytes.length / POSTING_BYTES);
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (bucketAt(middle) < bucket) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < count && bucketAt(index) === bucket; index++) into.push(base + view.getUint32(index * POSTING_BYTES + 3));
}

/** A run as the compactor plans with it. */
export interface PlannedRun {
  readonly run: number;
  readonly shift: number;
  readonly postings: number;
  readonly mergingInto: number | null;
}

/** A merge to do: its sources into `target` (null: a new run to claim, of `shift` and `postings`). */
export interface MergePlan {
  readonly target: number | null;
  readonly shift: number;
  readonly postings: number;
  readonly sources: readonly { readonly run: number; readonly shift: number }[];
}

/**
 * The next merge: first one interrupted (runs moving into a target), then the smallest size class
 * with {@link MERGE_FANOUT} runs or more, all of that class merged, oldest first. Null when none is due.
 */
export function nextMerge(runs: readonly PlannedRun[]): MergePlan | null {
  const byRun = new Map(runs.map((run) => [run.run, run]));
  const moving = runs.filter((run) => run.mergingInto !== null);
  if (moving.length > 0) {
    const target = byRun.get(moving[0].mergingInto!);
    const sources = moving.filter((run) => run.mergingInto === moving[0].mergingInto);
    if (target !== undefined) return { target: target.run, shift: target.shift, postings: target.postings, sources: sources.map(({ run, shift }) => ({ run, shift })) };
  }
  const targets = new Set(moving.map((run) => run.mergingInto));
  const tiers = new Map<number, PlannedRun[]>();
  for (const run of runs) {
    if (run.mergingInto !== null || targets.has(run.run)) continue;
    const tier = tierOf(run.postings);
    tiers.set(tier, [...(tiers.get(tier) ?? []), run]);
  }
  for (const tier of [...tiers.keys()].sort((a, b) => a - b)) {
    const sources = tiers.get(tier)!;
    if (sources.length < MERGE_FANOUT) continue;
    const postings = sources.reduce((sum, run) => sum + run.postings, 0);
    return { target: null, shift: shiftFor(postings), postings, sources: sources.map(({ run, shift }) => ({ run, shift })) };
  }
  return null;
}

/** About how many postings one step of a merge reads and writes. */
export const STEP_POSTINGS = 1 << 18;

/**
 * The bucket ranges a merge moves one step at a time: about {@link STEP_POSTINGS} postings each, and
 * never cutting a source's row or the target's (every shift's range is a power of two, aligned).
 */
export function mergeSteps(plan: MergePlan): { low: number; high: number }[] {
  const all = 1 << BUCKET_BITS;
  let width = all;
  while (width > 1 && (plan.postings * width) / all > STEP_POSTINGS) width >>>= 1;
  for (const shift of [plan.shift, ...plan.sources.map((source) => source.shift)]) width = Math.max(width, 1 << shift);
  const steps: { low: number; high: number }[] = [];
  for (let low = 0; low < all; low += width) steps.push({ low, high: low + width - 1 });
  return steps;
}
