import { createHash } from 'node:crypto';
import type { GameAnalysis, GameIdentity, PositionTrack } from '../../formats/plugin.js';

/**
 * How many plies a broken-off copy must have to count as a copy (issue 30): fewer could be any
 * game's opening. `head` hashes the start and this many plies.
 */
export const PREFIX_PLIES = 30;

/**
 * What a write statement needs of a game's `game_identities` row beside its sequence (a binary
 * parameter of its own, as the positions' entries are): the plies, the two hashes, the transform,
 * the first mover's seat and the signature.
 */
export interface IdentityRowFields {
  readonly identity_plies: number | null;
  readonly identity_head: string | null;
  readonly identity_whole: string | null;
  /** Bit t set for each transform t turning the game into the sequence's orientation. */
  readonly identity_transforms: number | null;
  readonly identity_first_seat: number | null;
  readonly identity_signature: string | null;
  readonly identity_ended: boolean | null;
}

export const IDENTITY_ROW_FIELDS = 'identity_plies int, identity_head text, identity_whole text, identity_transforms int, identity_first_seat int, identity_signature text, identity_ended boolean';

const NO_IDENTITY: IdentityRowFields = {
  identity_plies: null,
  identity_head: null,
  identity_whole: null,
  identity_transforms: null,
  identity_first_seat: null,
  identity_signature: null,
  identity_ended: null,
};

/**
 * A 64-bit hash (PostgreSQL's signed bigint, in decimal) of the family and the first `length` bytes
 * of an identity's sequence (whose start names the board): games of different families never share one.
 */
export function identityHash(family: string, sequence: Uint8Array, length = sequence.length): string {
  const hash = createHash('sha256').update(`${family}|`).update(sequence.subarray(0, length)).digest();
  return hash.readBigInt64BE(0).toString();
}

/** How many bytes of a sequence {@link PREFIX_PLIES} plies end at (all of it, for a shorter game). */
export function headLength(identity: Pick<GameIdentity, 'startLength' | 'plyLength' | 'plies'>): number {
  return identity.startLength + Math.min(identity.plies, PREFIX_PLIES) * identity.plyLength;
}

export function identityRowFields(track: PositionTrack | null | undefined, analysis: GameAnalysis | undefined): IdentityRowFields {
  const identity = track?.identity;
  if (!identity || !analysis) return NO_IDENTITY;
  return {
    identity_plies: identity.plies,
    identity_head: identityHash(track.family, identity.sequence, headLength(identity)),
    identity_whole: identityHash(track.family, identity.sequence),
    identity_transforms: identity.transforms.reduce((mask, t) => mask | (1 << t), 0),
    identity_first_seat: identity.firstSeat,
    identity_signature: identity.signature ?? null,
    identity_ended: identity.endedByRule === true,
  };
}

/** A game's identity sequence as a statement's parameter (sent as binary), or null when it has none. */
export function identitySequence(track: PositionTrack | null | undefined, analysis: GameAnalysis | undefined): Buffer | null {
  const sequence = track?.identity?.sequence;
  if (!sequence || !analysis) return null;
  return Buffer.from(sequence.buffer, sequence.byteOffset, sequence.byteLength);
}

/**
 * A CTE inserting the `game_identities` rows of the games of CTE `made` (columns `id`, `i` and
 * {@link IDENTITY_ROW_FIELDS}), their sequences the `i`-th element of the bytea array `sequences`.
 */
export function identityRowsFrom(made: string, sequences: string): string {
  return `identities AS (
         INSERT INTO game_identities (game_id, plies, head, whole, transforms, first_seat, signature, ended, sequence)
         SELECT m.id, m.identity_plies, m.identity_head::bigint, m.identity_whole::bigint, m.identity_transforms, m.identity_first_seat, m.identity_signature, m.identity_ended, e.sequence
         FROM ${made} m JOIN unnest(${sequences}) WITH ORDINALITY AS e(sequence, i) ON e.i = m.i
         WHERE m.identity_plies IS NOT NULL AND e.sequence IS NOT NULL
       )`;
}
