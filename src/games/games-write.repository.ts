import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import type { Query } from '../database/sql.js';
import type { ReadResult } from '../formats/format-reader.js';
import type { UploadedFile } from '../formats/plugin.js';
import { GameEntity } from './entities/index.js';
import type { GameId } from './game-id.pipe.js';
import { playerNameKey } from '../common/name-key.js';
import { IDENTITY_ROW_FIELDS, identityRowFields, identityRowsFrom, identitySequence } from '../indexes/identities/identity-rows.js';
import { POSITION_ROW_FIELDS, laterBuckets, positionEntries, positionRowFields, positionRowsFrom } from '../indexes/positions/position-rows.js';
import { PositionPostingsRepository } from '../indexes/positions/postings.repository.js';
import { patternBytes, patternRowsFrom } from '../indexes/patterns/pattern-rows.js';
import { EXAMPLE, exampleGame, exampleRecord, SEEDED_GAMES } from './sql-examples.js';

export interface NewGame {
  readonly file: UploadedFile;
  readonly sha256: string;
  readonly mediaType: string;
  readonly filename: string | null;
  readonly record: ReadResult;
  /** The account that published the game (src/accounts); null or absent for none. */
  readonly owner?: string | null;
  /** Set for a game of a multi-game file: its bytes are this range of the kept file, not a copy. */
  readonly inUpload?: { readonly uploadId: number; readonly start: number; readonly end: number };
}

/** A game with eight positions past the openings (keys of made-up bytes): its postings are a run. */
const EXAMPLE_TRACKED_GAME: NewGame = (() => {
  const game = exampleGame('(;GM[1]SZ[9];B[ee])');
  const entries = Uint8Array.from({ length: 14 * 11 }, (_, i) => (i * 37 + 11) & 0xff);
  return { ...game, record: { ...game.record, positions: { family: 'go', stride: 11, entries } } };
})();

/**
 * Files of at most this many bytes keep them in the games row (`games.raw`, checked by the table):
 * a row of their own in game_files would cost about 40 bytes more. Larger ones live in game_files.
 */
const INLINE_RAW_MAX = 256;

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

/** What {@link GamesWriteRepository.insertMany} says of one game. */
export type Inserted = { readonly id: number; readonly uploadedAt: Date; readonly created: true } | { readonly created: false };

/**
 * The archive's writes: a game stored (alone, or a batch of a kept file's games), read again, or
 * deleted, and the lookups by SHA-256 that decide whether bytes are new. Every write of one upload
 * happens in one transaction. The SQL sent is in src/queries/games-write.repository.sql.
 */
@Injectable()
export class GamesWriteRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly postings: PositionPostingsRepository,
  ) {}

  /** The ids of the games holding these bytes (SHA-256 in hex), by SHA-256; those the archive lacks are left out. */
  @GenerateSql({ params: [[SEEDED_GAMES[0].sha256, '0'.repeat(64)]] })
  async idsBySha256(sha256s: readonly string[], query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<Map<string, number>> {
    if (sha256s.length === 0) return new Map();
    const rows = await query<{ sha256: string; id: string }>(
      `SELECT encode(sha256, 'hex') AS sha256, id FROM games WHERE sha256 IN (SELECT decode(h, 'hex') FROM unnest($1::text[]) AS h)`,
      [sha256s],
    );
    return new Map(rows.map((row) => [row.sha256, Number(row.id)]));
  }

  @GenerateSql({ params: [SEEDED_GAMES[0].sha256] })
  async findIdBySha256(sha256: string): Promise<number | undefined> {
    const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM games WHERE sha256 = decode($1, 'hex')`, [sha256]);
    return rows.length > 0 ? Number(rows[0].id) : undefined;
  }

  /**
   * Inserts the game, its bytes and its index rows in one transaction (the game's statement, then
   * its postings), so an upload is written whole or not at all. When the same bytes were stored
   * meanwhile (a racing upload), the unique SHA-256 turns the insert into a no-op: `created: false`,
   * and the caller reads the stored game.
   */
  @GenerateSql({ params: [exampleGame('(;GM[1]PB[Lee Sedol]PW[Gu Li];B[qd])')] })
  async insert(game: NewGame): Promise<Inserted> {
    return this.dataSource.transaction(async (manager) => {
      const query: Query = (sql, params) => manager.query(sql, params);
      const inserted = await this.insertMany([game], query);
      await this.writePostings([game], inserted, query);
      return inserted[0];
    });
  }

  /**
   * Inserts games with their bytes and index rows in one statement (a collection's games a batch at
   * a time): one result per game, in order. A game whose bytes the archive has, or an earlier game of
   * the batch has, is not inserted (`created: false`); the caller finds the game that has them.
   * Their postings are {@link writePostings}' (one run for every batch of a transaction).
   */
  @GenerateSql(
    { name: 'every file small enough to stay in its row', params: [[exampleGame('(;GM[1];B[aa])'), exampleGame('(;GM[1];B[bb])')]] },
    { name: 'a file kept in game_files beside one kept in its row', params: [[exampleGame(`(;GM[1]C[${'a long comment '.repeat(20)}];B[cc])`), exampleGame('(;GM[1];B[dd])')]] },
  )
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
      owner: game.owner ?? null,
      ...indexRowFields(game.record),
      ...positionRowFields(game.record.positions, game.record.analysis),
      ...identityRowFields(game.record.positions, game.record.analysis),
    }));
    const params: unknown[] = [JSON.stringify(fields), batch.map((game) => (inline(game) ? game.file.bytes : null))];
    const files = batch.map((game) => (game.inUpload || inline(game) ? 'NULL' : `$${params.push(game.file.bytes)}::bytea`));
    const fileArray = params.length > 2 ? `ARRAY[${files.join(', ')}]` : `'{}'::bytea[]`;
    // Each game's positions as a binary parameter of its own, as the larger files are.
    const tracks = batch.map((game) => {
      const entries = positionEntries(game.record.positions);
      return entries === null ? 'NULL::bytea' : `$${params.push(entries)}::bytea`;
    });
    const sequences = batch.map((game) => {
      const sequence = identitySequence(game.record.positions, game.record.analysis);
      return sequence === null ? 'NULL::bytea' : `$${params.push(sequence)}::bytea`;
    });
    // And its board's changes for pattern search, so too.
    const boards = batch.map((game) => {
      const bytes = patternBytes(game.record.positions);
      return bytes === null ? 'NULL::bytea' : `$${params.push(bytes)}::bytea`;
    });
    const rows = await query<{ id: string; sha256: string; uploaded_at: Date }>(
      `WITH src AS (
         SELECT s.*, b.raw
         FROM json_to_recordset($1::json) AS s(i int, ${READING_FIELDS}, sha256 text, size int, media_type text, filename text,
                                               upload_id bigint, upload_start int, upload_end int, owner text, ${INDEX_ROW_FIELDS}, ${POSITION_ROW_FIELDS},
                                               ${IDENTITY_ROW_FIELDS})
         JOIN unnest($2::bytea[]) WITH ORDINALITY AS b(raw, i) ON b.i = s.i
       ), ${formatRows('src')}, game AS (
         INSERT INTO games (format_id, header, body, header_start, header_end, body_start, body_end, family_id, indexed, status_reason,
                            sha256, size, media_type, filename, upload_id, upload_start, upload_end, raw, owner)
         SELECT f.id, s.header, s.body, s.header_start, s.header_end, s.body_start, s.body_end, fa.id, s.indexed, s.status_reason,
                decode(s.sha256, 'hex'), s.size, CASE WHEN s.media_type = f.media_type THEN NULL ELSE s.media_type END, s.filename,
                s.upload_id, s.upload_start, s.upload_end, s.raw, s.owner
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
       ), ${indexRowsFrom('made')}, ${positionRowsFrom('made', `ARRAY[${tracks.join(', ')}]`)}, ${identityRowsFrom('made', `ARRAY[${sequences.join(', ')}]`)}
       , ${patternRowsFrom('made', `ARRAY[${boards.join(', ')}]`)}
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
   * The run of postings of the games just inserted (src/positions/postings.ts): the buckets of their
   * later positions, one run for every batch of the caller's transaction, written in it (tell the
   * PostingsCompactor once it commits). Nothing when none of them has later positions.
   */
  @GenerateSql({ params: [[EXAMPLE_TRACKED_GAME], [{ id: Number(EXAMPLE.game), uploadedAt: new Date(0), created: true }]] })
  async writePostings(games: readonly NewGame[], inserted: readonly Inserted[], query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<void> {
    await this.postings.writeRun(
      games.flatMap((game, index) => {
        const made = inserted[index];
        return made.created ? [{ id: made.id, buckets: laterBuckets(game.record.positions) }] : [];
      }),
      query,
    );
  }

  /**
   * Replaces what a plugin made of a stored game (the GoFans columns, status, media type and index
   * rows) with a new reading of the same bytes, in one transaction. The bytes never change.
   * False when the game does not exist (any more).
   */
  @GenerateSql({ params: [EXAMPLE.game, exampleRecord('Lee Sedol', 'Gu Li', '2004-05-02'), 'application/x-go-sgf'] })
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
        `WITH a AS (DELETE FROM game_analyses WHERE game_id = $1), p AS (DELETE FROM game_positions WHERE game_id = $1),
         i AS (DELETE FROM game_identities WHERE game_id = $1)
         DELETE FROM game_players WHERE game_id = $1`,
        [id],
      );
      await manager.query(
        `WITH made AS (SELECT $1::bigint AS id, 1 AS i, s.* FROM json_to_record($2::json) AS s(family text, ${INDEX_ROW_FIELDS}, ${POSITION_ROW_FIELDS}, ${IDENTITY_ROW_FIELDS})),
         ${indexRowsFrom('made')}, ${positionRowsFrom('made', 'ARRAY[$3::bytea]')}, ${identityRowsFrom('made', 'ARRAY[$4::bytea]')}
         SELECT 1`,
        [
          id,
          JSON.stringify({ family: record.family, ...indexRowFields(record), ...positionRowFields(record.positions, record.analysis), ...identityRowFields(record.positions, record.analysis) }),
          positionEntries(record.positions),
          identitySequence(record.positions, record.analysis),
        ],
      );
      await manager.query(`DELETE FROM game_patterns WHERE game_id = $1`, [id]);
      await manager.query(`WITH made AS (SELECT $1::bigint AS id, 1 AS i, $2::text AS family), ${patternRowsFrom('made', 'ARRAY[$3::bytea]')} SELECT 1`, [
        id,
        record.family,
        patternBytes(record.positions),
      ]);
      // Its postings from the old reading stay until a merge: a search confirms every candidate by its tail.
      await this.postings.writeRun([{ id: Number(id), buckets: laterBuckets(record.positions) }], (sql, params) => manager.query(sql, params));
      return true;
    });
  }

  /** The account that owns a game: null for none, undefined when there is no such game. */
  @GenerateSql({ params: [EXAMPLE.game] })
  async ownerOf(id: GameId): Promise<string | null | undefined> {
    const rows: { owner: string | null }[] = await this.dataSource.query(`SELECT owner FROM games WHERE id = $1`, [id]);
    return rows.length > 0 ? rows[0].owner : undefined;
  }

  @GenerateSql({ params: [EXAMPLE.gameToDelete] })
  async delete(id: GameId): Promise<boolean> {
    const result = await this.dataSource.createQueryBuilder().delete().from(GameEntity).where('id = :id', { id }).execute();
    return (result.affected ?? 0) > 0;
  }
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
