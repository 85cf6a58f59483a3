import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import type { Query } from '../database/sql.js';
import type { ReadResult } from '../formats/format-reader.js';
import type { UploadedFile } from '../formats/plugin.js';
import type { GameIndex, IndexRun, IndexedGame } from '../indexes/game-index.js';
import { Indexes } from '../indexes/indexes.js';
import type { GameId } from '../http/game-id.pipe.js';

/** Games written per statement when a file's games are stored: large enough to amortise a round trip, small enough to keep a statement's parameters modest. */
const INSERT_BATCH = 1000;
/** The games of one of the indexes' runs at most (the position postings' run: about 2 M postings, 16 MB while it is sorted). */
const RUN_GAMES = 10 * INSERT_BATCH;

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
 * The archive's one writer: a game stored (alone, or a kept file's games a batch at a time), read
 * again, or deleted, and the lookups by SHA-256 that decide whether bytes are new. Its own SQL writes
 * `games`, `game_files` and `formats`; everything derived from a game is written through the indexes
 * on (src/indexes), which it knows only by their interface: their rows join each batch's one
 * statement, their runs (what a statement cannot write) follow in the same transaction, their
 * upkeep is told once the transaction commits. The SQL sent is in src/queries/games-write.repository.sql.
 */
@Injectable()
export class GamesWriteRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly indexes: Indexes,
  ) {}

  /**
   * Runs `work` in one transaction, then tells the indexes' upkeep that writes committed (the
   * position postings' merges). Every write through the indexes runs in one of these.
   */
  @GenerateSql()
  async transaction<T>(work: (query: Query) => Promise<T>): Promise<T> {
    const result = await this.dataSource.transaction((manager) => work((sql, params) => manager.query(sql, params)));
    this.indexes.committed();
    return result;
  }

  /** Refuses (400 `reindex.unknown_index`) names of indexes that are not on. It sends no SQL: a property, not one of the methods recorded in src/queries. */
  readonly checkIndexes = (names: readonly string[]): void => {
    this.indexes.named(names);
  };

  /** Whether the index of this name is on here (INDEXES). Sends no SQL, as {@link checkIndexes}. */
  readonly isOn = (name: string): boolean => this.indexes.get(name) !== undefined;

  /** The ids of the games holding these bytes (SHA-256 in hex), by SHA-256; those the archive lacks are left out. */
  @GenerateSql()
  async idsBySha256(sha256s: readonly string[], query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<Map<string, number>> {
    if (sha256s.length === 0) return new Map();
    const rows = await query<{ sha256: string; id: string }>(
      `SELECT encode(sha256, 'hex') AS sha256, id FROM games WHERE sha256 IN (SELECT decode(h, 'hex') FROM unnest($1::text[]) AS h)`,
      [sha256s],
    );
    return new Map(rows.map((row) => [row.sha256, Number(row.id)]));
  }

  @GenerateSql()
  async findIdBySha256(sha256: string): Promise<number | undefined> {
    const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM games WHERE sha256 = decode($1, 'hex')`, [sha256]);
    return rows.length > 0 ? Number(rows[0].id) : undefined;
  }

  /**
   * Inserts the game, its bytes and its index rows in one transaction, so an upload is written
   * whole or not at all. When the same bytes were stored meanwhile (a racing upload), the unique
   * SHA-256 turns the insert into a no-op: `created: false`, and the caller reads the stored game.
   */
  @GenerateSql()
  async insert(game: NewGame): Promise<Inserted> {
    return this.transaction(async (query) => (await this.insertAll([game], query))[0]);
  }

  /**
   * Inserts games on `query` (the caller's transaction, see {@link transaction}): {@link insertMany}
   * a batch at a time, the indexes' runs written once per RUN_GAMES games (a file's games together, a
   * huge file's in parts). One result per game, in order. While a batch's statement runs on the
   * server, this thread adds the batch before it to the indexes' runs and makes the next statement,
   * a few games at a time so that the driver keeps sending the one under way: the server's work and
   * this thread's overlap (the embedded database runs its statements on this thread, and gains
   * nothing, loses nothing).
   */
  @GenerateSql()
  async insertAll(games: readonly NewGame[], query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<Inserted[]> {
    const indexes = this.indexes.on;
    const inserted: Inserted[] = [];
    let runs = openRuns(indexes);
    let written = 0;
    /** The last batch stored, not yet added to the runs. */
    let pending: IndexedGame[] = [];
    let statement = await statementOf(indexes, games.slice(0, INSERT_BATCH));
    for (let from = 0; from < games.length; from += INSERT_BATCH) {
      const running = runStatement(statement, query);
      const stored = pending;
      const meanwhile = (async () => {
        await addToRuns(runs, stored, true);
        return from + INSERT_BATCH < games.length ? statementOf(indexes, games.slice(from + INSERT_BATCH, from + 2 * INSERT_BATCH), true) : undefined;
      })();
      // Should this statement fail, the work meanwhile ends unobserved, and nothing is sent of it.
      meanwhile.catch(() => undefined);
      const batch = await running;
      inserted.push(...batch);
      pending = storedGames(games.slice(from, from + INSERT_BATCH), batch);
      const next = await meanwhile;
      if (next) statement = next;
      if (inserted.length - written >= RUN_GAMES || inserted.length === games.length) {
        await finishRuns(runs, pending, query);
        pending = [];
        runs = openRuns(indexes);
        written = inserted.length;
      }
    }
    return inserted;
  }

  /**
   * Inserts games with their bytes and index rows in one statement: one result per game, in order.
   * A game whose bytes the archive has, or an earlier game of the batch has, is not inserted
   * (`created: false`); the caller finds the game that has them. What the indexes write after the
   * statement is {@link afterInsert}'s.
   */
  @GenerateSql()
  async insertMany(games: readonly NewGame[], query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<Inserted[]> {
    return runStatement(await statementOf(this.indexes.on, games), query);
  }

  /**
   * What the indexes write once games are stored, on the caller's transaction (the position index's
   * run of postings of the games just inserted), as {@link insertAll} writes it: nothing for games
   * not inserted.
   */
  @GenerateSql()
  async afterInsert(games: readonly NewGame[], inserted: readonly Inserted[], query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<void> {
    await writeRuns(this.indexes.on, storedGames(games, inserted), query);
  }

  /**
   * Replaces what a plugin made of a stored game with a new reading of the same bytes, in one
   * transaction: the GoFans columns, status and media type, then each index's rows, removed and
   * written again through the index. With `only`, just those indexes are rebuilt (the game's row
   * stays as it is). The bytes never change. False when the game does not exist (any more).
   */
  @GenerateSql()
  async replaceReading(id: GameId, record: ReadResult, mediaType: string, only?: readonly string[]): Promise<boolean> {
    const indexes = only === undefined ? this.indexes.on : this.indexes.named(only);
    return this.transaction(async (query) => {
      const updated = await query<{ id: string }>(
        only === undefined
          ? // The UPDATE answers through a SELECT: TypeORM answers an UPDATE's own RETURNING as [rows, count].
            `WITH src AS (SELECT s.*, $3::text AS media_type FROM json_to_record($2::json) AS s(${READING_FIELDS})), ${formatRows('src')},
             updated AS (
               UPDATE games SET format_id = (SELECT id FROM format), header = s.header, body = s.body, header_start = s.header_start, header_end = s.header_end,
                                body_start = s.body_start, body_end = s.body_end, family_id = (SELECT id FROM families WHERE name = s.family),
                                indexed = s.indexed, status_reason = s.status_reason,
                                media_type = CASE WHEN s.media_type = (SELECT media_type FROM format) THEN NULL ELSE s.media_type END
               FROM src s WHERE games.id = $1 RETURNING games.id
             )
             SELECT id FROM updated`
          : `SELECT id FROM games WHERE id = $1 FOR UPDATE`,
        only === undefined ? [id, JSON.stringify(readingFields(record)), mediaType] : [id],
      );
      if (updated.length === 0) return false;
      const removes = indexes.flatMap((index) => (index.remove ? [index.remove('$1::bigint[]')] : []));
      if (removes.length > 0) await query(`WITH ${removes.join(', ')} SELECT 1`, [[id]]);
      const params: unknown[] = [id, JSON.stringify({ family: record.family, ...indexFields(indexes, record) })];
      const rows = indexRows(indexes, 'made', [record], params);
      if (rows !== '') {
        await query(`WITH made AS (SELECT $1::bigint AS id, 1 AS i, s.* FROM json_to_record($2::json) AS s(family text${fieldsOf(indexes)}))${rows} SELECT 1`, params);
      }
      await writeRuns(indexes, [{ id: Number(id), reading: record }], query);
      return true;
    });
  }

  /** The account that owns a game: null for none, undefined when there is no such game. */
  @GenerateSql()
  async ownerOf(id: GameId): Promise<string | null | undefined> {
    const rows: { owner: string | null }[] = await this.dataSource.query(`SELECT owner FROM games WHERE id = $1`, [id]);
    return rows.length > 0 ? rows[0].owner : undefined;
  }

  /** Deletes a game, its bytes and, through each index, its index rows, in one statement. */
  @GenerateSql()
  async delete(id: GameId): Promise<boolean> {
    const removes = this.indexes.on.flatMap((index) => (index.remove ? [`${index.remove('ARRAY[$1::bigint]')}, `] : []));
    const deleted = await this.transaction((query) => query<{ id: string }>(`WITH ${removes.join('')}game AS (DELETE FROM games WHERE id = $1 RETURNING id) SELECT id FROM game`, [id]));
    return deleted.length > 0;
  }
}

/** One batch's insert statement, made by {@link statementOf}, and what reads its answer. */
interface BatchStatement {
  readonly games: readonly NewGame[];
  /** Each SHA-256's first game in the batch: only that one is inserted. */
  readonly first: ReadonlyMap<string, number>;
  /** Null when the batch inserts nothing (it was empty). */
  readonly sql: string | null;
  readonly params: unknown[];
}

/** Games made into a statement's rows between two yields to the event loop, when {@link statementOf} is told to yield. */
const STATEMENT_STEP = 100;

/**
 * The statement inserting `games` (see {@link GamesWriteRepository.insertMany}). With `yielding`, it
 * is made {@link STATEMENT_STEP} games at a time, letting the event loop run between: made while
 * another statement is being sent and run, it leaves that one's bytes their way to the server.
 */
async function statementOf(indexes: readonly GameIndex[], games: readonly NewGame[], yielding = false): Promise<BatchStatement> {
  const first = new Map<string, number>();
  const batch = games.filter((game, index) => !first.has(game.sha256) && first.set(game.sha256, index));
  if (batch.length === 0) return { games, first, sql: null, params: [] };
  const inline = (game: NewGame) => !game.inUpload && game.file.bytes.length <= INLINE_RAW_MAX;
  // Everything but the bytes goes as one JSON array (one parameter, read by json_to_recordset):
  // no array literal to write here and parse there, and problems and details, json in the table,
  // are kept as the text written here. The bytes kept in the row (a few hundred at most) go as a
  // bytea array; a file kept in game_files goes as a parameter of its own, which the driver sends
  // as binary: in an array literal its bytes would be written out in hex here and parsed back
  // character by character there (this statement took 1.56 s for a 40 MB file that way, 0.57 s
  // now, where a bare INSERT of the bytes takes 0.27 s). Each index's bytes go as a parameter a game.
  const params: unknown[] = [null, batch.map((game) => (inline(game) ? game.file.bytes : null))];
  const files = batch.map((game) => (game.inUpload || inline(game) ? 'NULL' : `$${params.push(game.file.bytes)}::bytea`));
  const fileArray = params.length > 2 ? `ARRAY[${files.join(', ')}]` : `'{}'::bytea[]`;
  const json: string[] = [];
  const refs = indexes.map(() => [] as string[]);
  for (let from = 0; from < batch.length; from += STATEMENT_STEP) {
    if (yielding) await nextTurn();
    const step = batch.slice(from, from + STATEMENT_STEP);
    const fields = step.map((game, at) => ({
      i: from + at + 1,
      ...readingFields(game.record),
      sha256: game.sha256,
      size: game.file.bytes.length,
      media_type: game.mediaType,
      filename: game.filename,
      upload_id: game.inUpload?.uploadId ?? null,
      upload_start: game.inUpload?.start ?? null,
      upload_end: game.inUpload?.end ?? null,
      owner: game.owner ?? null,
      ...indexFields(indexes, game.record),
    }));
    json.push(JSON.stringify(fields).slice(1, -1));
    pushIndexBytes(indexes, step.map((game) => game.record), params, refs);
  }
  params[0] = `[${json.join(',')}]`;
  const sql = `WITH src AS (
         SELECT s.*, b.raw
         FROM json_to_recordset($1::json) AS s(i int, ${READING_FIELDS}, sha256 text, size int, media_type text, filename text,
                                               upload_id bigint, upload_start int, upload_end int, owner text${fieldsOf(indexes)})
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
       )${indexCtes(indexes, 'made', refs)}
       SELECT id, encode(sha256, 'hex') AS sha256, uploaded_at FROM game`;
  return { games, first, sql, params };
}

/** Sends a batch's statement: one result per game of the batch, in order. */
async function runStatement({ games, first, sql, params }: BatchStatement, query: Query): Promise<Inserted[]> {
  if (sql === null) return [];
  const rows = await query<{ id: string; sha256: string; uploaded_at: Date }>(sql, params);
  // A game without a row: its bytes were stored meanwhile (a racing upload), or earlier in the batch.
  const made = new Map(rows.map((row) => [row.sha256, row]));
  return games.map((game, index) => {
    const row = made.get(game.sha256);
    return row !== undefined && first.get(game.sha256) === index ? { id: Number(row.id), uploadedAt: row.uploaded_at, created: true } : { created: false };
  });
}

/** The games a batch stored (those `inserted` says were created), as the indexes take them. */
function storedGames(games: readonly NewGame[], inserted: readonly Inserted[]): IndexedGame[] {
  return games.flatMap((game, index): IndexedGame[] => {
    const made = inserted[index];
    return made.created ? [{ id: made.id, reading: game.record }] : [];
  });
}

/** A run of each index that keeps one (see GameIndex.openRun). */
function openRuns(indexes: readonly GameIndex[]): IndexRun[] {
  return indexes.flatMap((index) => (index.openRun ? [index.openRun()] : []));
}

/** Adds stored games to the runs; with `yielding`, {@link STATEMENT_STEP} games at a time, letting the event loop run between. */
async function addToRuns(runs: readonly IndexRun[], games: readonly IndexedGame[], yielding = false): Promise<void> {
  for (let from = 0; from < games.length; from += STATEMENT_STEP) {
    if (yielding) await nextTurn();
    const step = games.slice(from, from + STATEMENT_STEP);
    for (const run of runs) run.add(step);
  }
}

/** Adds the last stored games to the runs and writes them, on `query`. */
async function finishRuns(runs: readonly IndexRun[], games: readonly IndexedGame[], query: Query): Promise<void> {
  await addToRuns(runs, games);
  for (const run of runs) await run.write(query);
}

/** What the indexes write after the statements, for these stored games, on `query`. */
async function writeRuns(indexes: readonly GameIndex[], games: readonly IndexedGame[], query: Query): Promise<void> {
  await finishRuns(openRuns(indexes), games, query);
}

/** A turn of the event loop: what waits on I/O (a statement being sent) goes on meanwhile. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The JSON fields the indexes declare, as more columns of a record definition (`, a int, b text`), or nothing. */
function fieldsOf(indexes: readonly GameIndex[]): string {
  return indexes.map((index) => (index.fields ? `, ${index.fields}` : '')).join('');
}

/** A reading's values of the fields the indexes declare. */
function indexFields(indexes: readonly GameIndex[], reading: ReadResult): object {
  return Object.assign({}, ...indexes.map((index) => index.fieldsOf?.(reading) ?? {})) as object;
}

/**
 * The indexes' CTEs for the games of CTE `made` (`, name AS (…)…`, or nothing): each index's bytes
 * go as one bytea parameter a game (pushed onto `params`), its rows from the i-th of them.
 */
function indexRows(indexes: readonly GameIndex[], made: string, readings: readonly ReadResult[], params: unknown[]): string {
  const refs = indexes.map(() => [] as string[]);
  pushIndexBytes(indexes, readings, params, refs);
  return indexCtes(indexes, made, refs);
}

/** Pushes each index's bytes of `readings` onto `params`, and their references (`$n::bytea`, or NULL) onto the index's list in `refs`. */
function pushIndexBytes(indexes: readonly GameIndex[], readings: readonly ReadResult[], params: unknown[], refs: string[][]): void {
  indexes.forEach((index, at) => {
    const bytesOf = index.bytesOf;
    if (!index.rows || !bytesOf) return;
    for (const reading of readings) {
      const bytes = bytesOf(reading);
      refs[at].push(bytes === null ? 'NULL::bytea' : `$${params.push(bytes)}::bytea`);
    }
  });
}

/** The indexes' CTEs (see {@link indexRows}) given each index's byte parameters by game. */
function indexCtes(indexes: readonly GameIndex[], made: string, refs: readonly (readonly string[])[]): string {
  return indexes.map((index, at) => (index.rows ? `, ${index.rows(made, index.bytesOf ? `ARRAY[${refs[at].join(', ')}]` : `'{}'::bytea[]`)}` : '')).join('');
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
