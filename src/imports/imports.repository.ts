import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ProblemDetails } from '../common/problem-details.js';
import { GenerateSql } from '../database/sql.js';
import type { Query } from '../database/sql.js';
import type { ImportKind } from './import-entries.js';

export const IMPORT_STATES = ['running', 'done', 'failed'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export const IMPORT_OUTCOMES = ['stored', 'indexed', 'duplicate', 'refused'] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

/** An import as stored, with its progress. */
export interface ImportView {
  readonly id: number;
  readonly state: ImportState;
  readonly kind: ImportKind;
  readonly filename: string | null;
  /** The account that sent the import, and so owns its files and games; null for none. */
  readonly owner: string | null;
  readonly filesTotal: number;
  readonly filesDone: number;
  readonly gamesStored: number;
  readonly duplicates: number;
  readonly refused: number;
  /** The folder the receiving node spooled the body to (on that node's disk). */
  readonly spoolPath: string;
  /** The spool folder's files as kept in the database, in order (null for an import from before they were). */
  readonly spoolFiles: readonly SpoolFile[] | null;
  readonly problem: ProblemDetails | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A file of a spool folder kept in the database: its name in the folder, and its size. */
export interface SpoolFile {
  readonly name: string;
  readonly bytes: number;
}

/** A spooled body to keep in the database: its files in order, and their bytes one after the other in chunks. */
export interface SpooledBodyRows {
  readonly files: readonly SpoolFile[];
  readonly chunks: AsyncIterable<Buffer> | Iterable<Buffer>;
}

/** Thrown when this node no longer owns the import it works on: another node took it over (its heartbeat was late). */
export class ImportLeaseLost extends Error {
  constructor(readonly importId: number) {
    super(`import ${importId} is no longer this node's: another node has taken it over`);
  }
}

/** What became of one file of an import. */
export interface ImportEntryRecord {
  readonly position: number;
  readonly path: string;
  readonly outcome: ImportOutcome;
  readonly uploadId: number | null;
  readonly gameIds: readonly number[];
  readonly problem: ProblemDetails | null;
  /** New games the file brought (counted into `games_stored`). */
  readonly gamesStored: number;
  /** Games of the file the archive already had (counted into `duplicates`). */
  readonly duplicates: number;
}

export type ImportEntryView = Omit<ImportEntryRecord, 'gamesStored' | 'duplicates'>;

interface ImportRow {
  id: string;
  state: ImportState;
  kind: ImportKind;
  filename: string | null;
  account: string | null;
  files_total: number;
  files_done: number;
  games_stored: number;
  duplicates: number;
  refused: number;
  spool_path: string;
  spool_files: SpoolFile[] | null;
  problem: ProblemDetails | null;
  created_at: Date;
  updated_at: Date;
}

interface ImportEntryRow {
  position: number;
  path: string;
  outcome: ImportOutcome;
  upload_id: string | null;
  game_ids: string[];
  problem: ProblemDetails | null;
}

const IMPORT_COLUMNS = 'id, state, kind, filename, account, files_total, files_done, games_stored, duplicates, refused, spool_path, spool_files, problem, created_at, updated_at';

/** The SQL of bulk imports and their entries. The SQL sent is in src/queries/imports.repository.sql. */
@Injectable()
export class ImportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A new running import, owned by nobody yet; with `body`, its spooled body is written beside it in
   * the same transaction (one statement per chunk), so that no node ever claims an import whose body
   * is not all there.
   */
  @GenerateSql()
  async create(kind: ImportKind, filename: string | null, filesTotal: number, spoolPath: string, owner: string | null, body?: SpooledBodyRows): Promise<ImportView> {
    const insert = (run: Query) =>
      run<ImportRow>(
        `INSERT INTO imports (state, kind, filename, files_total, spool_path, spool_files, account) VALUES ('running', $1, $2, $3, $4, $5::jsonb, $6) RETURNING ${IMPORT_COLUMNS}`,
        [kind, filename, filesTotal, spoolPath, body === undefined ? null : JSON.stringify(body.files), owner],
      );
    if (body === undefined) return toView((await insert((sql, params) => this.dataSource.query(sql, params)))[0]);
    return this.dataSource.transaction(async (manager) => {
      const run: Query = (sql, params) => manager.query(sql, params);
      const [row] = await insert(run);
      let seq = 0;
      for await (const chunk of body.chunks) {
        await run(`INSERT INTO import_spool (import_id, seq, bytes) VALUES ($1, $2, $3)`, [row.id, seq++, chunk]);
      }
      return toView(row);
    });
  }

  /** Chunk `seq` of an import's spooled body; undefined past its end (or once the import has finished). */
  @GenerateSql()
  async spoolChunk(importId: number, seq: number): Promise<Buffer | undefined> {
    const rows: { bytes: Buffer }[] = await this.dataSource.query(`SELECT bytes FROM import_spool WHERE import_id = $1 AND seq = $2`, [importId, seq]);
    return rows[0]?.bytes;
  }

  @GenerateSql()
  async findById(id: string): Promise<ImportView | undefined> {
    const rows: ImportRow[] = await this.dataSource.query(`SELECT ${IMPORT_COLUMNS} FROM imports WHERE id = $1`, [id]);
    return rows.length > 0 ? toView(rows[0]) : undefined;
  }

  /**
   * Claims for `owner` the oldest running import that nobody owns or whose owner's heartbeat is older
   * than `leaseMs` (by the database's clock, which every node shares), skipping any row another node
   * is claiming or writing to right now. `leaseMs` 0 takes any running import not claimed in this very
   * transaction: for the embedded database, whose one process runs one import at a time.
   * Declared before the other methods that name an owner: its example claims the seeded import for
   * the examples' node (scripts/sql-examples.ts), which theirs then own (`release`, which gives it
   * up, comes last).
   */
  @GenerateSql()
  async claim(owner: string, leaseMs: number): Promise<ImportView | undefined> {
    const rows: ImportRow[] = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE imports SET owner = $1, heartbeat_at = now()
         WHERE id = (
           SELECT id FROM imports
           WHERE state = 'running' AND (owner IS NULL OR heartbeat_at < now() - $2 * interval '1 millisecond')
           ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
         )
         RETURNING ${IMPORT_COLUMNS}
       ) SELECT * FROM claimed`,
      [owner, leaseMs],
    );
    return rows.length > 0 ? toView(rows[0]) : undefined;
  }

  /** Says `owner` still works on the import: false when it is no longer its (taken over, or finished). */
  @GenerateSql()
  async heartbeat(importId: number, owner: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH beaten AS (UPDATE imports SET heartbeat_at = now() WHERE id = $1 AND owner = $2 AND state = 'running' RETURNING id) SELECT id FROM beaten`,
      [importId, owner],
    );
    return rows.length > 0;
  }

  /**
   * A run of the import by `owner` begins at entry `from`: how many runs in a row have begun there,
   * this one counted (a run that got past it starts the count again); 0 when the import is no longer
   * `owner`'s to run.
   */
  @GenerateSql()
  async beginAttempt(importId: number, owner: string, from: number): Promise<number> {
    const rows: { attempts: number }[] = await this.dataSource.query(
      `WITH begun AS (
         UPDATE imports SET attempts = CASE WHEN attempted_from = $3 THEN attempts + 1 ELSE 1 END, attempted_from = $3
         WHERE id = $1 AND owner = $2 AND state = 'running' RETURNING attempts
       ) SELECT attempts FROM begun`,
      [importId, owner, from],
    );
    return rows.length > 0 ? rows[0].attempts : 0;
  }

  /**
   * A run of `owner`'s begun at entry `from` was stopped on purpose (the node shut down: a restart, a
   * deploy) before it got past the entry: it is no run that failed, and is not counted among them.
   */
  @GenerateSql()
  async giveBackAttempt(importId: number, owner: string, from: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE imports SET attempts = attempts - 1 WHERE id = $1 AND owner = $2 AND state = 'running' AND attempted_from = $3 AND attempts > 0`,
      [importId, owner, from],
    );
  }

  /** Where a (resumed) import goes on: the position after its last finished entry (entries finish in order). */
  @GenerateSql()
  async nextPosition(importId: number): Promise<number> {
    const rows: { next: number }[] = await this.dataSource.query(`SELECT coalesce(max(position) + 1, 0)::int AS next FROM import_entries WHERE import_id = $1`, [importId]);
    return rows[0].next;
  }

  /**
   * Writes an entry and adds it to the import's counters, on `query` (inside the transaction that
   * stores the file's games) or in a transaction of its own; answers the import as it is then. An
   * entry written before (a resumed import) changes nothing, and answers undefined. Only while
   * `owner` owns the running import: else it throws ImportLeaseLost, and the transaction (with the
   * file's games) is rolled back. The import's row stays locked until that transaction ends, so no
   * other node claims it in between.
   */
  @GenerateSql()
  async record(importId: number, owner: string, entry: ImportEntryRecord, query?: Query): Promise<ImportView | undefined> {
    return this.recordMany(importId, owner, [entry], query);
  }

  /**
   * {@link record} for several entries at once (files stored in one transaction), in three
   * statements whatever their number; undefined when every one was written before.
   */
  @GenerateSql()
  async recordMany(importId: number, owner: string, entries: readonly ImportEntryRecord[], query?: Query): Promise<ImportView | undefined> {
    const write = async (run: Query): Promise<ImportView | undefined> => {
      const owned = await run(`SELECT id FROM imports WHERE id = $1 AND owner = $2 AND state = 'running' FOR UPDATE`, [importId, owner]);
      if (owned.length === 0) throw new ImportLeaseLost(importId);
      const inserted = await run<{ files: number; stored: number; duplicates: number; refused: number }>(
        `WITH given AS (
           SELECT * FROM json_to_recordset($2::json) AS e(position int, path text, outcome text, upload_id bigint, game_ids json, problem jsonb, stored int, duplicates int)
         ), inserted AS (
           INSERT INTO import_entries (import_id, position, path, outcome, upload_id, game_ids, problem)
           SELECT $1, e.position, e.path, e.outcome, e.upload_id, ARRAY(SELECT json_array_elements_text(e.game_ids)::bigint), e.problem FROM given e ORDER BY e.position
           ON CONFLICT (import_id, position) DO NOTHING RETURNING position
         )
         SELECT count(*)::int AS files, coalesce(sum(e.stored), 0)::int AS stored, coalesce(sum(e.duplicates), 0)::int AS duplicates,
                count(*) FILTER (WHERE e.outcome = 'refused')::int AS refused
         FROM inserted i JOIN given e ON e.position = i.position`,
        [
          importId,
          JSON.stringify(
            entries.map((entry) => ({
              position: entry.position,
              path: entry.path,
              outcome: entry.outcome,
              upload_id: entry.uploadId,
              game_ids: entry.gameIds,
              problem: entry.problem,
              stored: entry.gamesStored,
              duplicates: entry.duplicates,
            })),
            storableStrings,
          ),
        ],
      );
      const [{ files, stored, duplicates, refused }] = inserted;
      if (files === 0) return undefined;
      const rows = await run<ImportRow>(
        // Wrapped in a SELECT: TypeORM answers an UPDATE's own RETURNING as [rows, count].
        `WITH counted AS (
           UPDATE imports SET files_done = files_done + $5, games_stored = games_stored + $2, duplicates = duplicates + $3,
             refused = refused + $4, updated_at = now() WHERE id = $1 RETURNING ${IMPORT_COLUMNS}
         ) SELECT * FROM counted`,
        [importId, stored, duplicates, refused, files],
      );
      return toView(rows[0]);
    };
    if (query) return write(query);
    return this.dataSource.transaction((manager) => write((sql, params) => manager.query(sql, params)));
  }

  /**
   * Ends the import `owner` owns, done or failed, and deletes its spooled body, in one statement;
   * false (and nothing changed) when it is not `owner`'s any more.
   */
  @GenerateSql()
  async finish(importId: number, owner: string, state: Exclude<ImportState, 'running'>, problem: ProblemDetails | null = null): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH finished AS (
         UPDATE imports SET state = $3, problem = $4::jsonb, owner = NULL, heartbeat_at = NULL, updated_at = now()
         WHERE id = $1 AND owner = $2 AND state = 'running' RETURNING id
       ), dropped AS (
         DELETE FROM import_spool WHERE import_id IN (SELECT id FROM finished)
       ) SELECT id FROM finished`,
      [importId, owner, state, problem === null ? null : JSON.stringify(problem, storableStrings)],
    );
    return rows.length > 0;
  }

  /** Up to `limit` finished entries after `afterPosition`, in order: a page of a keyset walk. */
  @GenerateSql()
  async entriesAfter(importId: string, afterPosition: number, limit: number): Promise<ImportEntryView[]> {
    const rows: ImportEntryRow[] = await this.dataSource.query(
      `SELECT position, path, outcome, upload_id, game_ids::text[] AS game_ids, problem FROM import_entries
       WHERE import_id = $1 AND position > $2 ORDER BY position LIMIT $3`,
      [importId, afterPosition, limit],
    );
    return rows.map((row) => ({
      position: row.position,
      path: row.path,
      outcome: row.outcome,
      uploadId: row.upload_id === null ? null : Number(row.upload_id),
      gameIds: row.game_ids.map(Number),
      problem: row.problem,
    }));
  }

  /** Which of the spool folders `paths` belong to an import, and in what state it is (folders of no import are not answered). */
  @GenerateSql()
  async spoolOwners(paths: readonly string[]): Promise<{ spoolPath: string; state: ImportState }[]> {
    const rows: { spool_path: string; state: ImportState }[] = await this.dataSource.query(`SELECT spool_path, state FROM imports WHERE spool_path = ANY($1::text[])`, [paths]);
    return rows.map((row) => ({ spoolPath: row.spool_path, state: row.state }));
  }

  /** Gives up `owner`'s claim on an unfinished import (the node is stopping): any node may take it at once. */
  @GenerateSql()
  async release(importId: number, owner: string): Promise<void> {
    await this.dataSource.query(`UPDATE imports SET owner = NULL, heartbeat_at = NULL WHERE id = $1 AND owner = $2`, [importId, owner]);
  }
}

function toView(row: ImportRow): ImportView {
  return {
    id: Number(row.id),
    state: row.state,
    kind: row.kind,
    filename: row.filename,
    owner: row.account,
    filesTotal: row.files_total,
    filesDone: row.files_done,
    gamesStored: row.games_stored,
    duplicates: row.duplicates,
    refused: row.refused,
    spoolPath: row.spool_path,
    spoolFiles: row.spool_files,
    problem: row.problem,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * A JSON replacer writing each NUL of a string as the six characters `\u0000`: PostgreSQL's text and
 * jsonb hold every other character but not that one, and an archive's damaged header may put it in
 * an entry's name (and so in its path and its problem's detail), which the import records as given.
 */
function storableStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '\\u0000') : value;
}
