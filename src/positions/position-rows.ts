import type { PositionTrack } from '../formats/plugin.js';

/**
 * How a game's positions are kept in `game_positions` (migrations/1765000000000-Positions.ts): the
 * first {@link HEAD_ENTRIES} entries in the row, the rest out of line, and the distinct buckets of
 * their keys for the GIN index.
 */
export const HEAD_ENTRIES = 16;

/**
 * A key's bucket is its top {@link BUCKET_BITS} bits (0 … 2^20-1). Fewer buckets make the index
 * smaller and each bucket's list of games longer: at 250 plies a game, 100,000 games put about 24
 * games in a bucket, which is what a query for a rare position confirms; common positions are
 * confirmed from the rows' heads.
 */
export const BUCKET_BITS = 20;

/** The bucket of the key in the 8 bytes at `at`. */
export function bucketAt(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 12) | (bytes[at + 1] << 4) | (bytes[at + 2] >>> 4);
}

/** The bucket of an unsigned 64-bit key. */
export function bucketOf(key: bigint): number {
  return Number(BigInt.asUintN(64, key) >> BigInt(64 - BUCKET_BITS));
}

/** A key as the 8 bytes the entries hold (unsigned, big-endian). */
export function keyBytes(key: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt.asUintN(64, key));
  return bytes;
}

/** The columns of a game's `game_positions` row as JSON fields (the write statements read them with json_to_record). */
export interface PositionRowFields {
  readonly position_plies: number | null;
  readonly position_buckets: string | null;
  readonly position_head: string | null;
  readonly position_tail: string | null;
}

export const POSITION_ROW_FIELDS = 'position_plies int, position_buckets text, position_head text, position_tail text';

export function positionRowFields(track: PositionTrack | null | undefined): PositionRowFields {
  if (!track || track.entries.length === 0) return { position_plies: null, position_buckets: null, position_head: null, position_tail: null };
  const { entries, stride } = track;
  const count = entries.length / stride;
  const buckets = new Set<number>();
  for (let at = 0; at < entries.length; at += stride) buckets.add(bucketAt(entries, at));
  const split = Math.min(count, HEAD_ENTRIES) * stride;
  const hex = (from: number, to: number) => Buffer.from(entries.buffer, entries.byteOffset + from, to - from).toString('hex');
  return {
    position_plies: count - 1,
    position_buckets: `{${[...buckets].sort((a, b) => a - b).join(',')}}`,
    position_head: hex(0, split),
    position_tail: split < entries.length ? hex(split, entries.length) : null,
  };
}

/** A CTE inserting the `game_positions` rows of the games of CTE `made` (columns `id`, `family` and {@link POSITION_ROW_FIELDS}). */
export function positionRowsFrom(made: string): string {
  return `positions AS (
         INSERT INTO game_positions (game_id, plies, family_id, buckets, head, tail)
         SELECT m.id, m.position_plies, fa.id, m.position_buckets::int[], decode(m.position_head, 'hex'), decode(m.position_tail, 'hex')
         FROM ${made} m JOIN families fa ON fa.name = m.family
         WHERE m.position_plies IS NOT NULL
       )`;
}
