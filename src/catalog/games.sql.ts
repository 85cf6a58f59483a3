/**
 * The SQL fragments the repositories that read games share (the games' write, search, view and
 * export; positions, patterns, identity): which tables a game's bytes, names and index rows come
 * from, and the column lists read from them.
 * Fragments only: every statement is sent, and recorded (src/queries), by a repository.
 */

/**
 * A game's bytes: in its row (small files), its own copy in `game_files`, or its range of a kept
 * multi-game file (`f` is `game_files`, `u` is `uploads`, both joined to `games g`).
 */
export const RAW = `coalesce(g.raw, f.raw, substring(u.raw FROM g.upload_start + 1 FOR g.upload_end - g.upload_start))`;
const rawSources = (batchInFirstParameter: boolean) =>
  `LEFT JOIN game_files f ON f.game_id = g.id${batchInFirstParameter ? ' AND f.game_id = ANY($1::bigint[])' : ''} AND g.raw IS NULL LEFT JOIN uploads u ON u.id = g.upload_id`;
export const RAW_SOURCES = rawSources(false);

/*
 * For a batch of games whose ids are `$1`, the rows joined to them are looked up by those ids too.
 * Told only `a.game_id = g.id`, the planner may read the whole table to hash it (on 100,000 games it
 * read all of game_analyses for every batch of 2,000), where a lookup by index reads a few pages.
 */
export const BATCH_RAW_SOURCES = rawSources(true);
export const BATCH_ANALYSES = `LEFT JOIN game_analyses a ON a.game_id = g.id AND a.game_id = ANY($1::bigint[])`;

/** The lookups naming a game's format (`fm`) and family (`fa`). */
export const NAME_SOURCES = `LEFT JOIN formats fm ON fm.id = g.format_id LEFT JOIN families fa ON fa.id = g.family_id`;

/** Publisher, version, family, status and media type by their names, from the row's ids and the lookups. */
const NAMED_COLUMNS = `fm.publisher, fm.version, fa.name AS family, CASE WHEN g.indexed THEN 'indexed' ELSE 'stored' END AS status,
  coalesce(g.media_type, fm.media_type) AS media_type`;

/** A summary's columns; problems and details parsed (`json`), or as the JSON text stored (`text`). */
export const summaryColumns = (problemsAndDetails: 'json' | 'text') => `
  g.id, ${NAMED_COLUMNS}, g.status_reason, encode(g.sha256, 'hex') AS sha256, g.size,
  g.filename, g.owner, g.uploaded_at, a.move_count, a.result, a.legal, a.consistent,
  ${problemsAndDetails === 'json' ? 'a.problems, a.details' : 'a.problems::text AS problems, a.details::text AS details'},
  a.board_width, a.board_height, to_char(a.date_played, 'YYYY-MM-DD') AS date_played, a.event, a.rules, a.ending, a.margin,
  (SELECT i.signature FROM game_identities i WHERE i.game_id = g.id) AS signature`;

export const SUMMARY_COLUMNS = summaryColumns('json');

/** A game's bytes and what serving them needs. */
export const RAW_COLUMNS = `${RAW} AS raw, encode(g.sha256, 'hex') AS sha256, g.filename, g.owner, ${NAMED_COLUMNS}`;

/** The upload time to the microsecond (a JavaScript date keeps milliseconds), for search cursors. */
export const UPLOADED_KEY = `to_char(g.uploaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS uploaded_key`;

/** The tags of the games whose ids are `$1`, each game's by code point ({@link TagRow}). */
export const TAGS_OF = `SELECT game_id, tag FROM game_tags WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, tag COLLATE "C"`;

/** The players of the games whose ids are `$1`, each game's in seat order ({@link PlayerRow}). */
export const PLAYERS_OF = `SELECT game_id, seat, name, external_id, color, rating, declared_points, points, captures, outcome
       FROM game_players WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat`;
