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
 * {@link ROW_POSTINGS} postings. A row's bytes are a byte giving the widths, then its postings in
 * the order of (bucket, game), each the bucket less the row's first (s bits, in as few whole bytes:
 * none when s is 0) and the game's id less the row's `base`, its smallest id (in as few bytes as the
 * row's largest needs), big-endian: 3 to 4 bytes a posting for runs of thousands of games.
 *
 * In memory a posting is one number, `bucket * 2^33 + game id` (exact: 20 + 33 bits), so a run's
 * postings sort as a Float64Array.
 */
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

/** The bytes a value below 2^bits takes, and the bytes a value up to `largest` takes (at least one). */
const bytesOfBits = (bits: number) => Math.ceil(bits / 8);
const bytesFor = (largest: number) => (largest < 0x100 ? 1 : largest < 0x10000 ? 2 : largest < 0x1000000 ? 3 : 4);

function writeBigEndian(bytes: Buffer, at: number, value: number, width: number): void {
  for (let i = width - 1; i >= 0; i--) {
    bytes[at + i] = value & 0xff;
    value = Math.floor(value / 256);
  }
}

function readBigEndian(bytes: Uint8Array, at: number, width: number): number {
  let value = 0;
  for (let i = 0; i < width; i++) value = value * 256 + bytes[at + i];
  return value;
}

/** Sorted, distinct postings as the rows of a run with the given shift. */
export function encodeRows(sorted: Float64Array, shift: number): EncodedRows {
  const bucketBytes = bytesOfBits(shift);
  // At most 4 + 3 bytes a posting, and a byte a row.
  const bytes = Buffer.allocUnsafe(sorted.length * 8);
  const rows = { shift, parts: [] as number[], bases: [] as number[], offsets: [] as number[], lengths: [] as number[] };
  let at = 0;
  for (let start = 0; start < sorted.length; ) {
    const part = bucketOfPosting(sorted[start]) >>> shift;
    let end = start;
    let base = Number.MAX_SAFE_INTEGER;
    let top = 0;
    while (end < sorted.length && bucketOfPosting(sorted[end]) >>> shift === part) {
      const game = gameOfPosting(sorted[end]);
      base = Math.min(base, game);
      top = Math.max(top, game);
      end++;
    }
    if (top - base >= 2 ** 32) throw new RangeError(`game ids ${base} and ${top} are too far apart for one row of postings`);
    const gameBytes = bytesFor(top - base);
    rows.parts.push(part);
    rows.bases.push(base);
    rows.offsets.push(at + 1);
    rows.lengths.push(1 + (end - start) * (bucketBytes + gameBytes));
    bytes[at++] = (bucketBytes << 4) | gameBytes;
    const first = part << shift;
    for (let i = start; i < end; i++) {
      writeBigEndian(bytes, at, bucketOfPosting(sorted[i]) - first, bucketBytes);
      writeBigEndian(bytes, at + bucketBytes, gameOfPosting(sorted[i]) - base, gameBytes);
      at += bucketBytes + gameBytes;
    }
    start = end;
  }
  return { ...rows, bytes: bytes.subarray(0, at) };
}

/** A row as a search or a merge reads it. */
export interface StoredRow {
  readonly part: number;
  readonly shift: number;
  readonly base: number;
  readonly games: Uint8Array;
}

/** How many postings a row holds. */
export function postingsInRow(row: StoredRow): number {
  const width = (row.games[0] >>> 4) + (row.games[0] & 0x0f);
  return (row.games.length - 1) / width;
}

/** The postings of a row, appended to `into` from `at`; the index after the last. */
export function decodeRow(row: StoredRow, into: Float64Array, at: number): number {
  const { games: bytes } = row;
  const bucketBytes = bytes[0] >>> 4;
  const gameBytes = bytes[0] & 0x0f;
  const first = row.part << row.shift;
  for (let i = 1; i + bucketBytes + gameBytes <= bytes.length; i += bucketBytes + gameBytes) {
    into[at++] = postingOf(first + readBigEndian(bytes, i, bucketBytes), row.base + readBigEndian(bytes, i + bucketBytes, gameBytes));
  }
  return at;
}

/** The games of a row holding `bucket`: the row is sorted by bucket, so a binary search finds the first. */
export function gamesInRow(row: StoredRow, bucket: number, into: number[]): void {
  const { games: bytes } = row;
  const bucketBytes = bytes[0] >>> 4;
  const gameBytes = bytes[0] & 0x0f;
  const width = bucketBytes + gameBytes;
  const sought = bucket - (row.part << row.shift);
  const bucketAt = (index: number) => readBigEndian(bytes, 1 + index * width, bucketBytes);
  const count = (bytes.length - 1) / width;
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (bucketAt(middle) < sought) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < count && bucketAt(index) === sought; index++) into.push(row.base + readBigEndian(bytes, 1 + index * width + bucketBytes, gameBytes));
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
