import type { GameAnalysis, PositionTrack } from '../../formats/plugin.js';
import { winnerOf } from '../../formats/families/outcome.js';
import { POSTING_BITS } from './postings.js';
import type { GatheredPostings } from './postings.js';

/**
 * How a game's positions are kept in `game_positions` (migrations/1765000000000-Positions.ts,
 * 1765600000000-PositionPostings.ts): the first entries in the row (`head`, {@link HEAD_BYTES} at
 * most), the rest out of line (`tail`); the keys of the first {@link OPENING_ENTRIES} positions
 * (`openings`) under a GIN index; the distinct buckets of the later keys in the runs of postings
 * (src/indexes/positions/postings.ts), written once the games have their ids.
 */
export const OPENING_ENTRIES = 6;

/**
 * The head holds as many entries as fit in this many bytes (and the openings, whatever their size):
 * 26 of Go's and Dots' 11-byte entries. Positions just past the openings that thousands of games
 * reach (a popular line at ply 10) are then confirmed from the rows themselves, without reading
 * thousands of tails out of line.
 */
export const HEAD_BYTES = 288;

/** How many entries of `stride` bytes the head holds. */
export function headEntries(stride: number): number {
  return Math.max(OPENING_ENTRIES, Math.floor(HEAD_BYTES / stride));
}

/**
 * The bucket of a key in the `buckets` arrays of rows stored before the runs of postings
 * (migrations/1765600000000): its top {@link BUCKET_BITS} bits, under a GIN index searches still
 * read. The runs' buckets are wider (src/indexes/positions/postings.ts, POSTING_BITS).
 */
export const BUCKET_BITS = 20;

/** The top 32 bits of the key in the 8 bytes at `at`, unsigned: a bucket of b bits is this `>>> (32 - b)`. */
export function keyTopAt(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

/** The {@link BUCKET_BITS}-bit bucket of the key in the 8 bytes at `at`. */
export function bucketAt(bytes: Uint8Array, at: number): number {
  return keyTopAt(bytes, at) >>> (32 - BUCKET_BITS);
}

/** A key as the 8 bytes the entries hold (unsigned, big-endian). */
export function keyBytes(key: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt.asUintN(64, key));
  return bytes;
}

/**
 * What a write statement needs of a game's `game_positions` row beside the entries themselves (which
 * go as a binary parameter of their own: written out in JSON they would be hex, twice the bytes, and
 * parsed back by the database): the last ply, the opening keys, where the head ends.
 */
export interface PositionRowFields {
  readonly position_plies: number | null;
  readonly position_openings: string | null;
  /** The ply each of the opening keys is first reached at, in their order. */
  readonly position_opening_plies: string | null;
  readonly position_split: number | null;
  readonly position_result: string | null;
  readonly position_played: string | null;
}

export const POSITION_ROW_FIELDS = 'position_plies int, position_openings text, position_opening_plies text, position_split int, position_result text, position_played date';

/** A key (8 bytes at `at`) as PostgreSQL's signed bigint, in decimal. */
export function signedKeyAt(bytes: Uint8Array, at: number): string {
  return new DataView(bytes.buffer, bytes.byteOffset + at, 8).getBigInt64(0).toString();
}

export function positionRowFields(track: PositionTrack | null | undefined, analysis: GameAnalysis | undefined): PositionRowFields {
  if (!track || track.entries.length === 0) {
    return { position_plies: null, position_openings: null, position_opening_plies: null, position_split: null, position_result: null, position_played: null };
  }
  const { entries, stride } = track;
  const count = entries.length / stride;
  const split = Math.min(count, headEntries(stride)) * stride;
  // Each key of the first positions once, at the first ply it is reached.
  const openings = new Map<string, number>();
  for (let ply = 0; ply < Math.min(count, OPENING_ENTRIES); ply++) {
    const key = signedKeyAt(entries, ply * stride);
    if (!openings.has(key)) openings.set(key, ply);
  }
  return {
    position_plies: count - 1,
    position_openings: `{${[...openings.keys()].join(',')}}`,
    position_opening_plies: `{${[...openings.values()].join(',')}}`,
    position_split: split,
    position_result: winnerOf(analysis),
    position_played: analysis?.facts.datePlayed ?? null,
  };
}

/** The `bits`-bit buckets of the keys of a game's later positions (past the openings), each once: its postings. */
export function laterBuckets(track: PositionTrack | null | undefined, bits: number = POSTING_BITS): number[] {
  if (!track || track.entries.length === 0) return [];
  const { entries, stride } = track;
  const buckets = new Set<number>();
  for (let at = laterFrom(track); at < entries.length; at += stride) buckets.add(keyTopAt(entries, at) >>> (32 - bits));
  return [...buckets];
}

/** Where a track's later positions (past the openings) begin in its entries. */
function laterFrom({ entries, stride }: PositionTrack): number {
  return Math.min(entries.length / stride, OPENING_ENTRIES) * stride;
}

/**
 * {@link laterBuckets} of a game added straight to a run's postings, a bucket a later position,
 * repeats and all (the run's sort keeps one of each): no set and no list a game, which were a
 * tenth of the event loop's work in the import.
 */
export function gatherLaterBuckets(gathered: GatheredPostings, game: number, track: PositionTrack | null | undefined): void {
  if (!track || track.entries.length === 0) return;
  const { entries, stride } = track;
  const from = laterFrom(track);
  gathered.reserve((entries.length - from) / stride);
  for (let at = from; at < entries.length; at += stride) gathered.push(game, keyTopAt(entries, at) >>> (32 - POSTING_BITS));
}

/** A game's entries as a statement's parameter (sent as binary), or null when it has none. */
export function positionEntries(track: PositionTrack | null | undefined): Buffer | null {
  if (!track || track.entries.length === 0) return null;
  return Buffer.from(track.entries.buffer, track.entries.byteOffset, track.entries.byteLength);
}

/**
 * CTEs inserting the `game_positions` rows of the games of CTE `made` (columns `id`, `i`, `family`
 * and {@link POSITION_ROW_FIELDS}), their entries the `i`-th element of the bytea array `entries`,
 * and their `opening_positions` rows (migrations 1765800000000, 1767500000000): a row a distinct
 * opening key, at its first ply, with the entry's bytes after the key (the transform byte and the
 * move played next), written in the index's order so each key's rows go in together.
 */
export function positionRowsFrom(made: string, entries: string): string {
  return `positions AS (
         INSERT INTO game_positions (game_id, plies, played, family_id, result, openings, head, tail)
         SELECT m.id, m.position_plies, m.position_played, fa.id, m.position_result, m.position_openings::bigint[], substring(e.entries FROM 1 FOR m.position_split),
                nullif(substring(e.entries FROM m.position_split + 1), ''::bytea)
         FROM ${made} m JOIN families fa ON fa.name = m.family JOIN unnest(${entries}) WITH ORDINALITY AS e(entries, i) ON e.i = m.i
         WHERE m.position_plies IS NOT NULL
       ), position_openings AS (
         INSERT INTO opening_positions (key, game_id, played, ply, result, turn)
         SELECT o.key, m.id, m.position_played, o.ply, coalesce(m.position_result, 'unknown') AS result,
                substring(e.entries FROM o.ply * (octet_length(e.entries) / (m.position_plies + 1)) + 9 FOR octet_length(e.entries) / (m.position_plies + 1) - 8) AS turn
         FROM ${made} m JOIN unnest(${entries}) WITH ORDINALITY AS e(entries, i) ON e.i = m.i,
              unnest(m.position_openings::bigint[], m.position_opening_plies::smallint[]) AS o(key, ply)
         WHERE m.position_plies IS NOT NULL
         ORDER BY o.key, turn, result, m.id
       )`;
}
