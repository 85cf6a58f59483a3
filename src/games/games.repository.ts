import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ReadResult } from '../formats/format-reader.js';
import type { Family, PlayerEntry, UploadedFile } from '../formats/plugin.js';
import { GameEntity } from './entities/index.js';
import type { GameId } from './game-id.pipe.js';
import { sortsByDay, walksUploadTime } from './game-view.js';
import type { GameFilters, GameView, GameViewWithJsonText, RawGame, SearchHit } from './game-view.js';
import { nameKeyMatches, playerNameKey } from './player-name-key.js';

export interface NewGame {
  readonly file: UploadedFile;
  readonly sha256: string;
  readonly mediaType: string;
  readonly filename: string | null;
  readonly record: ReadResult;
  /** Set for a game of a multi-game file: its bytes are this range of the kept file, not a copy. */
  readonly inUpload?: { readonly uploadId: number; readonly start: number; readonly end: number };
}

/** A stored file as a bulk export writes it: its bytes, with what its manifest entry lists. */
export interface ExportedFile extends RawGame {
  readonly id: number;
  readonly family: Family | null;
  readonly uploadedAt: Date;
  readonly players: PlayerEntry[];
}

/** A game's place in a search's order: its id and size, and the keys a cursor carries. */
export interface ExportKey {
  readonly id: number;
  readonly size: number;
  /** The day played (`YYYY-MM-DD`) when the search goes by it ({@link sortsByDay}); null when the file gives none. */
  readonly day: string | null;
  /** The upload time to the microsecond when the search goes by it ({@link walksUploadTime}), else null. */
  readonly uploadedKey: string | null;
}

/** Runs one statement: the pool's, or a transaction's. */
export type Query = (sql: string, params?: unknown[]) => Promise<any>;

/**
 * Files of at most this many bytes keep them in the games row (`games.raw`, checked by the table):
 * a row of their own in game_files would cost about 40 bytes more. Larger ones live in game_files.
 */
const INLINE_RAW_MAX = 256;

/**
 * A game's bytes: in its row (small files), its own copy in `game_files`, or its range of a kept
 * multi-game file (`f` is `game_files`, `u` is `uploads`, both joined to `games g`).
 */
const RAW = `coalesce(g.raw, f.raw, substring(u.raw FROM g.upload_start + 1 FOR g.upload_end - g.upload_start))`;
const rawSources = (batchInFirstParameter: boolean) =>
  `LEFT JOIN game_files f ON f.game_id = g.id${batchInFirstParameter ? ' AND f.game_id = ANY($1::bigint[])' : ''} AND g.raw IS NULL LEFT JOIN uploads u ON u.id = g.upload_id`;
const RAW_SOURCES = rawSources(false);

/*
 * For a batch of games whose ids are `$1`, the rows joined to them are looked up by those ids too.
 * Told only `a.game_id = g.id`, the planner may read the whole table to hash it (on 100,000 games it
 * read all of game_analyses for every batch of 2,000), where a lookup by index reads a few pages.
 */
const BATCH_RAW_SOURCES = rawSources(true);
const BATCH_ANALYSES = `LEFT JOIN game_analyses a ON a.game_id = g.id AND a.game_id = ANY($1::bigint[])`;

/** The lookups naming a game's format (`fm`) and family (`fa`). */
const NAME_SOURCES = `LEFT JOIN formats fm ON fm.id = g.format_id LEFT JOIN families fa ON fa.id = g.family_id`;

/** Publisher, version, family, status and media type by their names, from the row's ids and the lookups. */
const NAMED_COLUMNS = `fm.publisher, fm.version, fa.name AS family, CASE WHEN g.indexed THEN 'indexed' ELSE 'stored' END AS status,
  coalesce(g.media_type, fm.media_type) AS media_type`;

/** A summary's columns; problems and details parsed (`json`), or as the JSON text stored (`text`). */
const summaryColumns = (problemsAndDetails: 'json' | 'text') => `
  g.id, ${NAMED_COLUMNS}, g.status_reason, encode(g.sha256, 'hex') AS sha256, g.size,
  g.filename, g.uploaded_at, a.move_count, a.result, a.legal, a.consistent,
  ${problemsAndDetails === 'json' ? 'a.problems, a.details' : 'a.problems::text AS problems, a.details::text AS details'},
  a.board_width, a.board_height, to_char(a.date_played, 'YYYY-MM-DD') AS date_played, a.event, a.rules, a.ending, a.margin`;

const SUMMARY_COLUMNS = summaryColumns('json');

/** A game's bytes and what serving them needs. */
const RAW_COLUMNS = `${RAW} AS raw, encode(g.sha256, 'hex') AS sha256, g.filename, ${NAMED_COLUMNS}`;

/**
 * CTEs giving as `format` (id, publisher, version, usual media type) the `formats` rows of the
 * readings in CTE `src` (columns publisher, version, media_type): the rows there are, and new ones
 * whose usual media type is their first game's. Nothing is written for a format that has its row; a
 * racing insert of the same new format is met by DO UPDATE, which returns the other's row where DO
 * NOTHING would return none (this statement's snapshot cannot see it).
 */
function formatRows(src: string): string {
  return `wanted AS (
         SELECT DISTINCT ON (publisher, version) publisher, version, media_type FROM ${src} WHERE publisher IS NOT NULL
       ), known_format AS (
         SELECT f.id, f.publisher, f.version, f.media_type FROM formats f JOIN wanted w ON f.publisher = w.publisher AND f.version IS NOT DISTINCT FROM w.version
       ), new_format AS (
         INSERT INTO formats (publisher, version, media_type)
         SELECT w.publisher, w.version, w.media_type FROM wanted w
         WHERE NOT EXISTS (SELECT 1 FROM known_format k WHERE k.publisher = w.publisher AND k.version IS NOT DISTINCT FROM w.version)
         ON CONFLICT ON CONSTRAINT formats_publisher_version DO UPDATE SET media_type = formats.media_type
         RETURNING id, publisher, version, media_type
       ), format AS (
         SELECT * FROM known_format UNION ALL SELECT * FROM new_format
       )`;
}

/** What {@link GamesRepository.insertMany} says of one game. */
export type Inserted = { readonly id: number; readonly uploadedAt: Date; readonly created: true } | { readonly created: false };

/** The upload time to the microsecond (a JavaScript date keeps milliseconds), for search cursors. */
const UPLOADED_KEY = `to_char(g.uploaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS uploaded_key`;

/** All SQL of the archive. Every write of one upload happens in one transaction. */
@Injectable()
export class GamesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The ids of the games holding these bytes (SHA-256 in hex), by SHA-256; those the archive lacks are left out. */
  async idsBySha256(sha256s: readonly string[], query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<Map<string, number>> {
    if (sha256s.length === 0) return new Map();
    const rows: { sha256: string; id: string }[] = await query(
      `SELECT encode(sha256, 'hex') AS sha256, id FROM games WHERE sha256 IN (SELECT decode(h, 'hex') FROM unnest($1::text[]) AS h)`,
      [sha256s],
    );
    return new Map(rows.map((row) => [row.sha256, Number(row.id)]));
  }

  async findIdBySha256(sha256: string): Promise<number | undefined> {
    const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM games WHERE sha256 = decode($1, 'hex')`, [sha256]);
    return rows.length > 0 ? Number(rows[0].id) : undefined;
  }

  /**
   * Inserts the game, its bytes and its index rows in one statement, so an upload is written whole
   * or not at all, in one round trip. When the same bytes were stored meanwhile (a racing upload), the unique
   * SHA-256 turns the insert into a no-op: `created: false`, and the caller reads the stored game.
   */
  async insert(game: NewGame, query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<Inserted> {
    return (await this.insertMany([game], query))[0];
  }

  /**
   * Inserts games with their bytes and index rows in one statement (a collection's games a batch at
   * a time): one result per game, in order. A game whose bytes the archive has, or an earlier game of
   * the batch has, is not inserted (`created: false`); the caller finds the game that has them.
   */
  async insertMany(games: readonly NewGame[], query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<Inserted[]> {
    const first = new Map<string, number>();
    const batch = games.filter((game, index) => !first.has(game.sha256) && first.set(game.sha256, index));
    if (batch.length === 0) return [];
    const inline = (game: NewGame) => !game.inUpload && game.file.bytes.length <= INLINE_RAW_MAX;
    // Everything but the bytes goes as one JSON array (one parameter, read by json_to_recordset):
    // no array literal to write here and parse there, and problems and details, json in the table,
    // are kept as the text written here. The bytes kept in the row (a few hundred at most) go as a
    // bytea array; a file kept in game_files goes as a parameter of its own, which the driver sends
    // as binary: in an array literal its bytes would be written out in hex here and parsed back
    // character by character there (this statement took 1.56 s for a 40 MB file that way, 0.57 s
    // now, where a bare INSERT of the bytes takes 0.27 s).
    const fields = batch.map((game, index) => ({
      i: index + 1,
      ...readingFields(game.record),
      sha256: game.sha256,
      size: game.file.bytes.length,
      media_type: game.mediaType,
      filename: game.filename,
      upload_id: game.inUpload?.uploadId ?? null,
      upload_start: game.inUpload?.start ?? null,
      upload_end: game.inUpload?.end ?? null,
      ...indexRowFields(game.record),
    }));
    const params: unknown[] = [JSON.stringify(fields), batch.map((game) => (inline(game) ? game.file.bytes : null))];
    const files = batch.map((game) => (game.inUpload || inline(game) ? 'NULL' : `$${params.push(game.file.bytes)}::bytea`));
    const fileArray = params.length > 2 ? `ARRAY[${files.join(', ')}]` : `'{}'::bytea[]`;
    const rows: { id: string; sha256: string; uploaded_at: Date }[] = await query(
      `WITH src AS (
         SELECT s.*, b.raw
         FROM json_to_recordset($1::json) AS s(i int, ${READING_FIELDS}, sha256 text, size int, media_type text, filename text,
                                               upload_id bigint, upload_start int, upload_end int, ${INDEX_ROW_FIELDS})
         JOIN unnest($2::bytea[]) WITH ORDINALITY AS b(raw, i) ON b.i = s.i
       ), ${formatRows('src')}, game AS (
         INSERT INTO games (format_id, header, body, header_start, header_end, body_start, body_end, family_id, indexed, status_reason,
                            sha256, size, media_type, filename, upload_id, upload_start, upload_end, raw)
         SELECT f.id, s.header, s.body, s.header_start, s.header_end, s.body_start, s.body_end, fa.id, s.indexed, s.status_reason,
                decode(s.sha256, 'hex'), s.size, CASE WHEN s.media_type = f.media_type THEN NULL ELSE s.media_type END, s.filename,
                s.upload_id, s.upload_start, s.upload_end, s.raw
         FROM src s LEFT JOIN format f ON f.publisher = s.publisher AND f.version IS NOT DISTINCT FROM s.version
              LEFT JOIN families fa ON fa.name = s.family
         ORDER BY s.i
         ON CONFLICT (sha256) DO NOTHING
         RETURNING id, sha256, uploaded_at
       ), made AS (
         SELECT g.id, s.* FROM game g JOIN src s ON decode(s.sha256, 'hex') = g.sha256
       ), file AS (
         -- The large bytes are joined here only: CTEs read more than once are kept whole, a file in them copied.
         INSERT INTO game_files (game_id, raw)
         SELECT m.id, b.raw FROM made m JOIN unnest(${fileArray}) WITH ORDINALITY AS b(raw, i) ON b.i = m.i WHERE b.raw IS NOT NULL
       ), ${indexRowsFrom('made')}
       SELECT id, encode(sha256, 'hex') AS sha256, uploaded_at FROM game`,
      params,
    );
    // A game without a row: its bytes were stored meanwhile (a racing upload), or earlier in the batch.
    const made = new Map(rows.map((row) => [row.sha256, row]));
    return games.map((game, index) => {
      const row = made.get(game.sha256);
      return row !== undefined && first.get(game.sha256) === index
        ? { id: Number(row.id), uploadedAt: row.uploaded_at, created: true }
        : { created: false };
    });
  }

  /**
   * Replaces what a plugin made of a stored game (the GoFans columns, status, media type and index
   * rows) with a new reading of the same bytes, in one transaction. The bytes never change.
   * False when the game does not exist (any more).
   */
  async replaceReading(id: GameId, record: ReadResult, mediaType: string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const updated: { id: string }[] = await manager.query(
        // The UPDATE answers through a SELECT: TypeORM answers an UPDATE's own RETURNING as [rows, count].
        `WITH src AS (SELECT s.*, $3::text AS media_type FROM json_to_record($2::json) AS s(${READING_FIELDS})), ${formatRows('src')},
         updated AS (
           UPDATE games SET format_id = (SELECT id FROM format), header = s.header, body = s.body, header_start = s.header_start, header_end = s.header_end,
                            body_start = s.body_start, body_end = s.body_end, family_id = (SELECT id FROM families WHERE name = s.family),
                            indexed = s.indexed, status_reason = s.status_reason,
                            media_type = CASE WHEN s.media_type = (SELECT media_type FROM format) THEN NULL ELSE s.media_type END
           FROM src s WHERE games.id = $1 RETURNING games.id
         )
         SELECT id FROM updated`,
        [id, JSON.stringify(readingFields(record)), mediaType],
      );
      if (updated.length === 0) return false;
      await manager.query(
        `WITH a AS (DELETE FROM game_analyses WHERE game_id = $1) DELETE FROM game_players WHERE game_id = $1`,
        [id],
      );
      await manager.query(
        `WITH made AS (SELECT $1::bigint AS id, s.* FROM json_to_record($2::json) AS s(${INDEX_ROW_FIELDS})), ${indexRowsFrom('made')}
         SELECT 1`,
        [id, JSON.stringify(indexRowFields(record))],
      );
      return true;
    });
  }

  /** Ids of the games matching the filters, ascending after `afterId`: the order bulk re-indexing walks in. */
  async idsAfter(filters: GameFilters, afterId: number, limit: number): Promise<number[]> {
    const { where, params } = whereClause(filters);
    params.push(afterId, limit);
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT g.id FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id
       WHERE g.id > $${params.length - 1}${where.length > 0 ? ` AND ${where.join(' AND ')}` : ''}
       ORDER BY g.id LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => Number(row.id));
  }

  async findById(id: GameId): Promise<GameView | undefined> {
    return (await this.viewsOf([id]))[0];
  }

  /** Games with their Header and Body, as `GET /games/{id}` shows them; in no particular order, missing ids left out. */
  async viewsOf(ids: readonly (GameId | number)[]): Promise<GameView[]> {
    return this.fullViewsOf(ids, SUMMARY_COLUMNS);
  }

  /** As {@link viewsOf}, with problems and details as the JSON text stored (a bulk export writes them out unparsed). */
  async viewsWithJsonTextOf(ids: readonly number[]): Promise<GameViewWithJsonText[]> {
    return this.fullViewsOf(ids, summaryColumns('text')) as Promise<unknown[]> as Promise<GameViewWithJsonText[]>;
  }

  /** Views with Header and Body and the summary's `columns`. */
  private async fullViewsOf(ids: readonly (GameId | number)[], columns: string): Promise<GameView[]> {
    // Header and Body are cut out of the stored bytes unless kept as text (see text-spans.ts). The
    // bytes are fetched once a game: OFFSET 0 keeps the planner from pulling the subquery up, which
    // would fetch them (a slice of a kept file, from its TOAST table) once for each of the two.
    // The players are asked for at once, not once the games have come: the database goes on to
    // them without waiting for this thread to take in the games' rows.
    const [rows, byGame] = await Promise.all([
      this.dataSource.query(
        `SELECT ${columns},
                coalesce(g.header, convert_from(substring(r.raw FROM g.header_start + 1 FOR g.header_end - g.header_start), 'UTF8')) AS header,
                coalesce(g.body, convert_from(substring(r.raw FROM g.body_start + 1 FOR g.body_end - g.body_start), 'UTF8')) AS body
         FROM games g ${BATCH_ANALYSES} ${NAME_SOURCES} ${BATCH_RAW_SOURCES} CROSS JOIN LATERAL (SELECT ${RAW} AS raw OFFSET 0) r
         WHERE g.id = ANY($1::bigint[])`,
        [ids],
      ),
      // The ids as given: a GameId may lie past what a JavaScript number holds exactly.
      this.playersOf(ids),
    ]);
    return rows.map((row: Record<string, unknown>) => toView(row, byGame.get(Number(row.id)) ?? [], true));
  }

  async findRaw(id: GameId): Promise<RawGame | undefined> {
    const rows = await this.dataSource.query(`SELECT ${RAW_COLUMNS} FROM games g ${NAME_SOURCES} ${RAW_SOURCES} WHERE g.id = $1`, [id]);
    return rows.length === 0 ? undefined : toRaw(rows[0]);
  }

  /** Stored files with what an export lists beside them (family, upload time, players); in no particular order, missing ids left out. */
  async filesOf(ids: readonly number[]): Promise<ExportedFile[]> {
    const rows = await this.dataSource.query(
      `SELECT g.id, g.uploaded_at, ${RAW_COLUMNS} FROM games g ${NAME_SOURCES} ${BATCH_RAW_SOURCES} WHERE g.id = ANY($1::bigint[])`,
      [ids],
    );
    const players = await this.playersOf(rows.map((row: { id: string }) => Number(row.id)));
    return rows.map((row: Record<string, any>) => ({ ...toRaw(row), id: Number(row.id), family: row.family, uploadedAt: row.uploaded_at, players: players.get(Number(row.id)) ?? [] }));
  }

  /**
   * Where the games matching a search lie, in its order: `limit` games from `offset` on, past the
   * position in `filters.past*` (keyset pagination), each with its size and the keys a cursor needs.
   * Only the keys the search's order goes by are written: then a search in upload order without
   * filters on the analysis reads no analysis (PostgreSQL drops the unused left join).
   */
  async exportKeys(filters: GameFilters, limit: number, offset = 0): Promise<ExportKey[]> {
    const { where, params } = whereClause(filters, offset + limit);
    params.push(limit, offset);
    const day = sortsByDay(filters.sort) ? `to_char(a.date_played, 'YYYY-MM-DD') AS date_played` : 'NULL AS date_played';
    const uploaded = walksUploadTime(filters) ? UPLOADED_KEY : 'NULL AS uploaded_key';
    const rows = await this.dataSource.query(
      `SELECT g.id, g.size, ${day}, ${uploaded}
       FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${orderOf(filters)}
       LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map((row: { id: string; size: number; date_played: string | null; uploaded_key: string | null }) => ({
      id: Number(row.id),
      size: Number(row.size),
      day: row.date_played,
      uploadedKey: row.uploaded_key,
    }));
  }

  /** The sizes of the games among `ids` that exist. */
  async sizesOf(ids: readonly number[]): Promise<Map<number, number>> {
    const rows: { id: string; size: number }[] = await this.dataSource.query(`SELECT id, size FROM games WHERE id = ANY($1::bigint[])`, [ids]);
    return new Map(rows.map((row) => [Number(row.id), Number(row.size)]));
  }

  /**
   * In upload order (ids grow with upload time), newest first unless asked; keyset pagination on the
   * id (and the day played, or the upload time, when the search goes by them). Each game comes with
   * its upload time to the microsecond, which a cursor needs to continue a search by upload time.
   */
  async search(filters: GameFilters, limit: number): Promise<SearchHit[]> {
    const { where, params } = whereClause(filters, limit);
    const param = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const rows = await this.dataSource.query(
      `SELECT ${SUMMARY_COLUMNS}, ${UPLOADED_KEY}
       FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${orderOf(filters)}
       LIMIT ${param(limit)}`,
      params,
    );
    const ids = rows.map((row: { id: string }) => Number(row.id));
    const players = await this.playersOf(ids);
    return rows.map((row: Record<string, unknown>) => ({ game: toView(row, players.get(Number(row.id)) ?? []), uploadedKey: row.uploaded_key as string }));
  }

  async delete(id: GameId): Promise<boolean> {
    const result = await this.dataSource.createQueryBuilder().delete().from(GameEntity).where('id = :id', { id }).execute();
    return (result.affected ?? 0) > 0;
  }


  private async playersOf(ids: readonly (GameId | number)[]): Promise<Map<number, PlayerEntry[]>> {
    const byGame = new Map<number, PlayerEntry[]>();
    if (ids.length === 0) return byGame;
    const rows = await this.dataSource.query(
      `SELECT game_id, seat, name, external_id, color, rating, declared_points, points, captures, outcome
       FROM game_players WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat`,
      [ids],
    );
    for (const row of rows) {
      const gameId = Number(row.game_id);
      const list = byGame.get(gameId) ?? [];
      list.push({
        seat: row.seat,
        name: row.name,
        externalId: row.external_id,
        color: row.color,
        rating: row.rating,
        declaredPoints: row.declared_points,
        points: row.points,
        captures: row.captures,
        outcome: row.outcome,
      });
      byGame.set(gameId, list);
    }
    return byGame;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function toRaw(row: any): RawGame {
  return {
    raw: row.raw,
    sha256: row.sha256,
    mediaType: row.media_type,
    filename: row.filename,
    publisher: row.publisher,
    version: row.version,
    status: row.status,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function toView(row: any, players: PlayerEntry[], texts = false): GameView {
  const view: GameView = {
    id: Number(row.id),
    publisher: row.publisher,
    version: row.version,
    family: row.family,
    status: row.status,
    statusReason: row.status_reason,
    sha256: row.sha256,
    size: row.size,
    mediaType: row.media_type,
    filename: row.filename,
    uploadedAt: row.uploaded_at,
    players,
    analysis:
      row.move_count === null || row.move_count === undefined
        ? null
        : {
            moveCount: row.move_count,
            result: row.result,
            legal: row.legal,
            consistent: row.consistent,
            problems: row.problems,
            details: row.details,
            facts: {
              boardWidth: row.board_width,
              boardHeight: row.board_height,
              datePlayed: row.date_played,
              event: row.event,
              rules: row.rules,
              ending: row.ending,
              margin: row.margin,
            },
          },
  };
  if (texts) {
    view.header = row.header;
    view.body = row.body;
  }
  return view;
}


function orderOf(filters: GameFilters): string {
  if (walksUploadTime(filters)) return filters.sort === 'uploaded' ? 'g.uploaded_at ASC, g.id ASC' : 'g.uploaded_at DESC, g.id DESC';
  switch (filters.sort) {
    case 'uploaded':
      return 'g.id ASC';
    case 'played':
      return 'a.date_played ASC, g.id ASC';
    case '-played':
      return 'a.date_played DESC, g.id DESC';
    default:
      return 'g.id DESC';
  }
}

/** Filters that narrow by the seats alone, nothing else: a page is then found among the seats. */
function byOneNameOnly(filters: GameFilters): boolean {
  const positional = new Set(['sort', 'pastId']);
  const narrowing = Object.entries(filters).filter(([key, value]) => value !== undefined && !positional.has(key)).map(([key]) => key);
  return narrowing.length === 1 && (narrowing[0] === 'player' || narrowing[0] === 'winner') && !sortsByDay(filters.sort);
}

/**
 * The WHERE conditions of a search (on `games g` joined with `game_analyses a`) and their
 * parameters; `pageSize` when they select one page (a search), not every match (re-indexing).
 */
function whereClause(filters: GameFilters, pageSize?: number): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const ascending = filters.sort === 'uploaded' || filters.sort === 'played';
  const byDate = sortsByDay(filters.sort);
  // Sorted by the day played, only games with a day are listed.
  if (byDate) where.push(`a.date_played IS NOT NULL`);
  if (filters.pastId !== undefined) {
    const past = ascending ? '>' : '<';
    if (byDate) where.push(`(a.date_played, g.id) ${past} (${param(filters.pastDate)}::date, ${param(filters.pastId)})`);
    else if (walksUploadTime(filters)) where.push(`(g.uploaded_at, g.id) ${past} (${param(filters.pastUploadedAt)}::timestamptz, ${param(filters.pastId)})`);
    else where.push(`g.id ${past} ${param(filters.pastId)}`);
  }
  if (filters.boardWidth !== undefined) where.push(`a.board_width = ${param(filters.boardWidth)}`);
  if (filters.boardHeight !== undefined) where.push(`a.board_height = ${param(filters.boardHeight)}`);
  if (filters.event !== undefined) where.push(`a.event_key = ${param(playerNameKey(filters.event))}`);
  if (filters.playedFrom !== undefined) where.push(`a.date_played >= ${param(filters.playedFrom)}::date`);
  if (filters.playedTo !== undefined) where.push(`a.date_played <= ${param(filters.playedTo)}::date`);
  if (filters.externalId !== undefined) {
    where.push(`g.id IN (SELECT p.game_id FROM game_players p WHERE p.external_id = ${param(filters.externalId)})`);
  }
  if (filters.filename !== undefined) where.push(`g.filename = ${param(filters.filename)}`);
  if (filters.ending !== undefined) where.push(`a.ending = ${param(filters.ending)}`);
  if (filters.marginMin !== undefined) where.push(`a.margin >= ${param(filters.marginMin)}`);
  if (filters.marginMax !== undefined) where.push(`a.margin <= ${param(filters.marginMax)}`);
  if (filters.rules !== undefined) where.push(`lower(a.rules) = lower(${param(filters.rules)})`);
  if (filters.rating !== undefined) where.push(`g.id IN (SELECT p.game_id FROM game_players p WHERE lower(p.rating) = lower(${param(filters.rating)}))`);
  if (filters.movesMin !== undefined) where.push(`a.move_count >= ${param(filters.movesMin)}`);
  if (filters.movesMax !== undefined) where.push(`a.move_count <= ${param(filters.movesMax)}`);
  if (filters.publisher !== undefined && filters.version !== undefined) {
    // One format: its games in id order straight from games_format_id.
    where.push(`g.format_id = (SELECT id FROM formats WHERE publisher = ${param(filters.publisher)} AND version = ${param(filters.version)})`);
  } else if (filters.publisher !== undefined) {
    where.push(`g.format_id IN (SELECT id FROM formats WHERE publisher = ${param(filters.publisher)})`);
  } else if (filters.version !== undefined) {
    where.push(`g.format_id IN (SELECT id FROM formats WHERE version = ${param(filters.version)})`);
  }
  if (filters.family !== undefined) where.push(`g.family_id = (SELECT id FROM families WHERE name = ${param(filters.family)})`);
  if (filters.status !== undefined) where.push(filters.status === 'indexed' ? 'g.indexed' : 'NOT g.indexed');
  if (filters.consistent !== undefined) where.push(`a.consistent = ${param(filters.consistent)}`);
  if (filters.uploadedFrom !== undefined) where.push(`g.uploaded_at >= ${param(filters.uploadedFrom)}`);
  if (filters.uploadedTo !== undefined) where.push(`g.uploaded_at < ${param(filters.uploadedTo)}`);
  const nameMatches = (part: string): string => nameKeyMatches('p.name_key', part, param);
  const seats = (condition: string): string => {
    if (pageSize === undefined || !byOneNameOnly(filters)) return `g.id IN (SELECT p.game_id FROM game_players p WHERE ${condition})`;
    // Nothing else filters: the page is the newest (or oldest) games of the matching seats, found
    // among the seats alone before any game row is read.
    const order = filters.sort === 'uploaded' ? 'ASC' : 'DESC';
    const past = filters.pastId === undefined ? '' : ` AND p.game_id ${order === 'ASC' ? '>' : '<'} ${param(filters.pastId)}`;
    return `g.id IN (SELECT DISTINCT p.game_id FROM game_players p WHERE ${condition}${past} ORDER BY p.game_id ${order} LIMIT ${param(pageSize)})`;
  };
  if (filters.player !== undefined) where.push(seats(nameMatches(filters.player)));
  if (filters.winner !== undefined) where.push(seats(`p.outcome = 'won' AND ${nameMatches(filters.winner)}`));
  return { where, params };
}

/** The fields {@link readingFields} writes, as a record definition for json_to_record(set). */
const READING_FIELDS = `publisher text, version text, header text, body text, header_start int, header_end int, body_start int, body_end int,
  family text, indexed boolean, status_reason text`;

/**
 * The GoFans columns and status of a reading: publisher, version, header and body (as text only
 * when they are not a slice of the bytes), their byte ranges, family, indexed, status_reason.
 */
function readingFields(record: ReadResult) {
  const { header, body } = record.spans;
  return {
    publisher: record.publisher,
    version: record.version,
    header: header === null ? record.header : null,
    body: body === null ? record.body : null,
    header_start: header?.start ?? null,
    header_end: header?.end ?? null,
    body_start: body?.start ?? null,
    body_end: body?.end ?? null,
    family: record.family,
    indexed: Boolean(record.analysis),
    status_reason: record.notIndexedReason ?? null,
  };
}

/** The fields {@link indexRowFields} writes, as a record definition (problems, details and players stay JSON text). */
const INDEX_ROW_FIELDS = `move_count int, result text, legal boolean, consistent boolean, problems json, details json,
  board_width int, board_height int, date_played date, event text, event_key text, rules text, ending text, margin double precision, players json`;

/**
 * The index rows of a reading as JSON fields: the analysis's columns (no move count: no analysis),
 * its problems and details (kept as the compact JSON text they are written in), the players.
 */
function indexRowFields(record: ReadResult) {
  const analysis = record.analysis;
  const players = (analysis?.players ?? []).map((player) => ({ ...player, nameKey: player.name === null ? null : playerNameKey(player.name) }));
  if (!analysis) return { move_count: null, players };
  const facts = analysis.facts;
  return {
    move_count: analysis.moveCount,
    result: analysis.result,
    legal: analysis.verdict.legal,
    consistent: analysis.verdict.consistent,
    problems: analysis.verdict.problems,
    details: analysis.details,
    board_width: facts.boardWidth,
    board_height: facts.boardHeight,
    date_played: facts.datePlayed,
    event: facts.event,
    event_key: facts.event === null ? null : playerNameKey(facts.event),
    rules: facts.rules,
    ending: facts.ending ?? null,
    margin: facts.margin ?? null,
    players,
  };
}

/** CTEs inserting the index rows of the games of CTE `made` (columns `id` and {@link INDEX_ROW_FIELDS}). */
function indexRowsFrom(made: string): string {
  return `analysis AS (
         INSERT INTO game_analyses (game_id, move_count, result, legal, consistent, problems, details,
                                    board_width, board_height, date_played, event, event_key, rules, ending, margin)
         SELECT m.id, m.move_count, m.result, m.legal, m.consistent, m.problems, m.details,
                m.board_width, m.board_height, m.date_played, m.event, m.event_key, m.rules, m.ending, m.margin
         FROM ${made} m WHERE m.move_count IS NOT NULL
       ), players AS (
         INSERT INTO game_players (game_id, seat, name, name_key, external_id, color, declared_points, points, captures, outcome, rating)
         SELECT m.id, p.seat, p.name, p."nameKey", p."externalId", p.color, p."declaredPoints", p.points, p.captures, p.outcome, p.rating
         FROM ${made} m, json_to_recordset(m.players) AS p(seat int, name text, "nameKey" text, "externalId" text, color text,
              "declaredPoints" double precision, points double precision, captures int, outcome text, rating text)
       ), names AS (
         INSERT INTO player_names (name_key)
         SELECT DISTINCT p."nameKey" FROM ${made} m, json_to_recordset(m.players) AS p("nameKey" text) WHERE p."nameKey" IS NOT NULL
         ORDER BY 1
         ON CONFLICT (name_key) DO NOTHING
       )`;
}
