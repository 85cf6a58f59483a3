import type { PositionTrack } from '../../formats/plugin.js';

/**
 * A game's `game_draughts.plies` (migrations/1766310000000-Draughts.ts) as one binary parameter of a
 * write statement: its positions as the family writes them (`src/formats/families/checkers/
 * board-masks.ts`, 16 bytes each, ply 0 first). Null for a game without them.
 */
export function draughtsBytes(track: PositionTrack | null | undefined): Buffer | null {
  const squares = track?.squares;
  if (!squares || track.family !== 'checkers' || squares.length === 0) return null;
  return Buffer.from(squares.buffer, squares.byteOffset, squares.byteLength);
}

/**
 * A CTE inserting the `game_draughts` rows of the games of CTE `made` (columns `id`, `i`), each from
 * the `i`-th element of the bytea array `bytes` ({@link draughtsBytes}; NULL: no row).
 */
export function draughtsRowsFrom(made: string, bytes: string): string {
  return `draughts AS (
         INSERT INTO game_draughts (game_id, plies)
         SELECT m.id, e.b FROM ${made} m JOIN unnest(${bytes}) WITH ORDINALITY AS e(b, i) ON e.i = m.i
         WHERE e.b IS NOT NULL
       )`;
}
