import type { GameAnalysis, PositionTrack } from '../../formats/plugin.js';
import { winnerOf } from '../../formats/families/outcome.js';
import { everHeld } from '../../formats/families/patterns.js';

/** What the search counts of a game found besides its line, written in its row: how it ended and the day played. */
export const PATTERN_ROW_FIELDS = 'pattern_result text, pattern_played date';

/** The values of {@link PATTERN_ROW_FIELDS} for a game. */
export function patternRowFields(analysis: GameAnalysis | undefined): { pattern_result: string | null; pattern_played: string | null } {
  return { pattern_result: winnerOf(analysis), pattern_played: analysis?.facts.datePlayed ?? null };
}

/**
 * A game's `game_patterns` row as one binary parameter of a write statement (migrations/
 * 1765300000000-Patterns.ts): the board's width and height (16 bits each, big-endian), the points
 * the first player ever held and those the second ever held (a bitmap of ⌈width·height / 8⌉ bytes
 * each), then the changes (`src/rules/patterns.ts`). Null for a game without them (no positions, or
 * a family without patterns).
 */
export function patternBytes(track: PositionTrack | null | undefined): Buffer | null {
  const board = track?.board;
  if (!board || (track.family !== 'go' && track.family !== 'dots')) return null;
  const { first, second } = everHeld(board);
  const bytes = Buffer.alloc(4 + 2 * first.length + board.changes.length);
  bytes.writeUInt16BE(board.width, 0);
  bytes.writeUInt16BE(board.height, 2);
  bytes.set(first, 4);
  bytes.set(second, 4 + first.length);
  bytes.set(board.changes, 4 + 2 * first.length);
  return bytes;
}

/**
 * A CTE inserting the `game_patterns` rows of the games of CTE `made` (columns `id`, `i`, `family`
 * and {@link PATTERN_ROW_FIELDS}), each from the `i`-th element of the bytea array `bytes`
 * ({@link patternBytes}; NULL: no row).
 */
export function patternRowsFrom(made: string, bytes: string): string {
  return `patterns AS (
         INSERT INTO game_patterns (game_id, family_id, width, height, first, second, changes, result, played, facts)
         SELECT m.id, fa.id, d.w, d.h, substring(e.b FROM 5 FOR d.n), substring(e.b FROM 5 + d.n FOR d.n), substring(e.b FROM 5 + 2 * d.n),
                m.pattern_result, m.pattern_played, true
         FROM ${made} m JOIN families fa ON fa.name = m.family JOIN unnest(${bytes}) WITH ORDINALITY AS e(b, i) ON e.i = m.i
              CROSS JOIN LATERAL (SELECT get_byte(e.b, 0) * 256 + get_byte(e.b, 1) AS w, get_byte(e.b, 2) * 256 + get_byte(e.b, 3) AS h) s
              CROSS JOIN LATERAL (SELECT s.w, s.h, (s.w * s.h + 7) / 8 AS n) d
         WHERE e.b IS NOT NULL
       )`;
}
