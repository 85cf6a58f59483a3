/**
 * The postings of the later positions' buckets (`position_postings`, migrations/1765600000000 and
 * 1765700000000): which games hold a key whose top bits are a given bucket. They are written a run
 * at a time — the games of one write statement, sorted — and runs of a size are merged into one in
 * the background (`PostingsCompactor`), as a log-structured merge tree: a write costs a sort and a
 * few rows instead of an index entry per posting at a random place, and a search reads one row per
 * run.
 *
 * A run's buckets are the keys' top {@link POSTING_BITS} bits (runs written before migration
 * 1765700000000: 20, and they keep them; a run's `bits` says which). A run is cut into rows by bucket
 * range: row `part` of a run with `shift` s holds the postings of buckets `part << s` to
 * `((part + 1) << s) - 1`, the shift chosen so a row holds about {@link ROW_POSTINGS} postings. A
 * row's bytes are a byte giving the widths, then its postings in the order of (bucket, game), each
 * the bucket less the row's first (s bits, in as few whole bytes: none when s is 0) and the game's
 * id less the row's `base`, its smallest id (in as few bytes as the row's largest needs),
 * big-endian: 4 to 5 bytes a posting for runs of thousands of games.
 *
 * In memory a run's postings are a BigUint64Array, a posting `bucket * 2^40 + game id`, sorted by
 * the engine's own numeric sort and read and written as two 32-bit words (no BigInt is made).
 */
/**
 * The bits of a key that make its bucket in the runs written now. A search confirms every game of
 * the bucket by its entries; with 20 bits a million games put ~200 games in a bucket (a rare
 * position confirmed each of them), with 24 a dozen. A posting's bucket then takes a byte more in
 * runs of a few hundred to 65,000 games, none more in larger ones.
 */
export const POSTING_BITS = 24;
/** The bucket widths runs may have: runs written before migration 1765700000000 have 20 bits. */
export const RUN_BITS: readonly number[] = [20, POSTING_BITS];
/** About how many postings a row holds: about 1 kB, kept in the row (no TOAST). */
export const ROW_POSTINGS = 200;
/** Runs whose posting counts share a power of {@link MERGE_FANOUT} are merged once there are that many of them. */
export const MERGE_FANOUT = 8;
/** A game id takes the low 40 bits of a posting, its bucket (24 bits at most) the others. */
const GAME_HIGH = 2 ** 8;
const WORD = 2 ** 32;
/** Buckets are below this (worked out once: a power in the check of each posting was a call of the runtime each time). */
const BUCKETS = 2 ** POSTING_BITS;
/** Which 32-bit word of a 64-bit element holds its high half, on this machine. */
const HIGH = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 1 : 0;
const LOW = 1 - HIGH;

/** A run's postings as they are sorted: `bucket * 2^40 + game id`. */
export type Postings = BigUint64Array;

/** The two 32-bit words of each posting, for reading and writing them. */
export function wordsOf(postings: Postings): Uint32Array {
  return new Uint32Array(postings.buffer, postings.byteOffset, postings.length * 2);
}

/** Sets posting `i` (through {@link wordsOf}) to a game's bucket. */
export function setPosting(words: Uint32Array, i: number, bucket: number, game: number): void {
  if (!(game < GAME_HIGH * WORD) || !(bucket < BUCKETS)) throw new RangeError(`no posting holds bucket ${bucket} of game ${game}`);
  words[2 * i + HIGH] = bucket * GAME_HIGH + Math.floor(game / WORD);
  words[2 * i + LOW] = game % WORD;
}

export function bucketOfPosting(words: Uint32Array, i: number): number {
  return words[2 * i + HIGH] >>> 8;
}

export function gameOfPosting(words: Uint32Array, i: number): number {
  return (words[2 * i + HIGH] & 0xff) * WORD + words[2 * i + LOW];
}

/**
 * A write's postings gathered game by game, as the games are stored (ascending ids, as
 * {@link sortedByBucket} sorts fastest), in a buffer that grows as they come.
 */
export class GatheredPostings {
  private postings = new BigUint64Array(4096);
  private words = wordsOf(this.postings);
  private count = 0;

  /** The postings of games given as ids and buckets, in that order. */
  static of(games: readonly { readonly id: number; readonly buckets: readonly number[] }[]): GatheredPostings {
    const gathered = new GatheredPostings();
    for (const game of games) gathered.add(game.id, game.buckets);
    return gathered;
  }

  /** A game's buckets. */
  add(game: number, buckets: readonly number[]): void {
    this.reserve(buckets.length);
    for (let i = 0; i < buckets.length; i++) setPosting(this.words, this.count++, buckets[i], game);
  }

  /** Room for `more` postings, to be given by {@link push}. */
  reserve(more: number): void {
    if (this.count + more <= this.postings.length) return;
    const grown = new BigUint64Array(Math.max(2 * this.postings.length, this.count + more));
    grown.set(this.postings.subarray(0, this.count));
    this.postings = grown;
    this.words = wordsOf(grown);
  }

  /** One bucket of a game, in room {@link reserve} made. A game may give a bucket twice: the run's sort keeps it once. */
  push(game: number, bucket: number): void {
    setPosting(this.words, this.count++, bucket, game);
  }

  /** The postings gathered so far (a view of the buffer: sorting it sorts them in place). */
  get all(): Postings {
    return this.postings.subarray(0, this.count);
  }
}

/** Postings of (bucket, game) pairs, in their order (for tests and examples). */
export function postingsOf(pairs: readonly (readonly [number, number])[]): Postings {
  const postings = new BigUint64Array(pairs.length);
  const words = wordsOf(postings);
  pairs.forEach(([bucket, game], i) => setPosting(words, i, bucket, game));
  return postings;
}

/** The shift that cuts `count` postings of `bits`-bit buckets into rows of about {@link ROW_POSTINGS}. */
export function shiftFor(count: number, bits: number = POSTING_BITS): number {
  const parts = Math.max(1, count / ROW_POSTINGS);
  return Math.max(0, bits - Math.ceil(Math.log2(parts)));
}

/** The size class of a run of `count` postings: runs of one class are merged together. */
export function tierOf(count: number): number {
  return Math.floor(Math.log(Math.max(1, count)) / Math.log(MERGE_FANOUT));
}

/** A run's rows, ready for one statement: part numbers, bases, and each row's bytes in `bytes` at `offsets`/`lengths` (1-based offsets, as SQL's substring takes them). */
export interface EncodedRows {
  readonly bits: number;
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
export function sortedDistinct(postings: Postings): Postings {
  postings.sort();
  return withoutRepeats(postings);
}

/** The sorted postings without repeats: moved down in place, the distinct prefix returned. */
function withoutRepeats(postings: Postings): Postings {
  const words = wordsOf(postings);
  let kept = 0;
  for (let i = 0; i < postings.length; i++) {
    if (kept > 0 && words[2 * i] === words[2 * kept - 2] && words[2 * i + 1] === words[2 * kept - 1]) continue;
    words[2 * kept] = words[2 * i];
    words[2 * kept + 1] = words[2 * i + 1];
    kept++;
  }
  return postings.subarray(0, kept);
}

/**
 * {@link sortedDistinct} for postings written game by game in ascending game id (a write's run: the
 * games of a batch, in the order they were stored): a stable radix sort of the high words (bucket
 * and the game's top bits) leaves the ties in the games' order, so it sorts in two linear passes
 * what a comparison sort of 64-bit values sorts in n log n. Postings in any other order are sorted by
 * {@link sortedDistinct}.
 */
export function sortedByBucket(postings: Postings): Postings {
  const words = wordsOf(postings);
  const n = postings.length;
  for (let i = 1; i < n; i++) {
    const before = gameOfPosting(words, i - 1);
    const game = gameOfPosting(words, i);
    if (game < before) return sortedDistinct(postings);
  }
  const spare = new BigUint64Array(n);
  const spareWords = wordsOf(spare);
  const counts = new Uint32Array(0x10001);
  let from = words;
  let to = spareWords;
  for (const shift of [0, 16]) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((from[2 * i + HIGH] >>> shift) & 0xffff) + 1]++;
    for (let k = 1; k <= 0xffff; k++) counts[k] += counts[k - 1];
    for (let i = 0; i < n; i++) {
      const at = counts[(from[2 * i + HIGH] >>> shift) & 0xffff]++;
      to[2 * at] = from[2 * i];
      to[2 * at + 1] = from[2 * i + 1];
    }
    [from, to] = [to, from];
  }
  // Two passes: the sorted postings are back in `postings`. Repeats (a game's bucket twice) go.
  return withoutRepeats(postings);
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

/** Sorted, distinct postings as the rows of a run of `bits`-bit buckets with the given shift. */
export function encodeRows(sorted: Postings, shift: number, bits: number = POSTING_BITS): EncodedRows {
  const bucketBytes = bytesOfBits(shift);
  const words = wordsOf(sorted);
  // At most 4 + 3 bytes a posting, and a byte a row.
  const bytes = Buffer.allocUnsafe(sorted.length * 8);
  const rows = { bits, shift, parts: [] as number[], bases: [] as number[], offsets: [] as number[], lengths: [] as number[] };
  let at = 0;
  for (let start = 0; start < sorted.length; ) {
    const part = bucketOfPosting(words, start) >>> shift;
    let end = start;
    let base = Number.MAX_SAFE_INTEGER;
    let top = 0;
    while (end < sorted.length && bucketOfPosting(words, end) >>> shift === part) {
      const game = gameOfPosting(words, end);
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
      writeBigEndian(bytes, at, bucketOfPosting(words, i) - first, bucketBytes);
      writeBigEndian(bytes, at + bucketBytes, gameOfPosting(words, i) - base, gameBytes);
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
export function decodeRow(row: StoredRow, into: Postings, at: number): number {
  const { games: bytes } = row;
  const words = wordsOf(into);
  const bucketBytes = bytes[0] >>> 4;
  const gameBytes = bytes[0] & 0x0f;
  const first = row.part << row.shift;
  for (let i = 1; i + bucketBytes + gameBytes <= bytes.length; i += bucketBytes + gameBytes) {
    setPosting(words, at++, first + readBigEndian(bytes, i, bucketBytes), row.base + readBigEndian(bytes, i + bucketBytes, gameBytes));
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
  /** The width of its buckets: only runs of one width are merged together. */
  readonly bits: number;
  readonly shift: number;
  readonly postings: number;
  readonly mergingInto: number | null;
}

/** A merge to do: its sources into `target` (null: a new run to claim, of `shift` and `postings`). */
export interface MergePlan {
  readonly target: number | null;
  readonly bits: number;
  readonly shift: number;
  readonly postings: number;
  readonly sources: readonly { readonly run: number; readonly shift: number }[];
}

/**
 * The next merge: first one interrupted (runs moving into a target), then the smallest size class
 * with {@link MERGE_FANOUT} runs or more (of one bucket width), all of that class merged, oldest
 * first. Null when none is due.
 */
export function nextMerge(runs: readonly PlannedRun[]): MergePlan | null {
  const byRun = new Map(runs.map((run) => [run.run, run]));
  const moving = runs.filter((run) => run.mergingInto !== null);
  if (moving.length > 0) {
    const target = byRun.get(moving[0].mergingInto!);
    const sources = moving.filter((run) => run.mergingInto === moving[0].mergingInto);
    if (target !== undefined) return { target: target.run, bits: target.bits, shift: target.shift, postings: target.postings, sources: sources.map(({ run, shift }) => ({ run, shift })) };
  }
  const targets = new Set(moving.map((run) => run.mergingInto));
  // By size class, then bucket width (the width in the class's key: 2^6 classes at most).
  const tiers = new Map<number, PlannedRun[]>();
  for (const run of runs) {
    if (run.mergingInto !== null || targets.has(run.run)) continue;
    const tier = tierOf(run.postings) * 64 + run.bits;
    tiers.set(tier, [...(tiers.get(tier) ?? []), run]);
  }
  for (const tier of [...tiers.keys()].sort((a, b) => a - b)) {
    const sources = tiers.get(tier)!;
    if (sources.length < MERGE_FANOUT) continue;
    const postings = sources.reduce((sum, run) => sum + run.postings, 0);
    const { bits } = sources[0];
    return { target: null, bits, shift: shiftFor(postings, bits), postings, sources: sources.map(({ run, shift }) => ({ run, shift })) };
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
  const all = 2 ** plan.bits;
  let width = all;
  while (width > 1 && (plan.postings * width) / all > STEP_POSTINGS) width >>>= 1;
  for (const shift of [plan.shift, ...plan.sources.map((source) => source.shift)]) width = Math.max(width, 1 << shift);
  const steps: { low: number; high: number }[] = [];
  for (let low = 0; low < all; low += width) steps.push({ low, high: low + width - 1 });
  return steps;
}
