import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ProblemDetails } from '../common/problem-details.js';
import { GenerateSql } from '../database/sql.js';
import type { Query } from '../database/sql.js';
import { EXAMPLE } from '../games/sql-examples.js';
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
  readonly filesTotal: number;
  readonly filesDone: number;
  readonly gamesStored: number;
  readonly duplicates: number;
  readonly refused: number;
  readonly spoolPath: string;
  readonly problem: ProblemDetails | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
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
  files_total: number;
  files_done: number;
  games_stored: number;
  duplicates: number;
  refused: number;
  spool_path: string;
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

const IMPORT_COLUMNS = 'id, state, kind, filename, files_total, files_done, games_stored, duplicates, refused, spool_path, problem, created_at, updated_at';

/** The SQL of bulk imports and their entries. The SQL sent is in src/queries/imports.repository.sql. */
@Injectable()
export class ImportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @GenerateSql({ params: ['zip', 'games.zip', 3, '/tmp/tabula-import-spool'] })
  async create(kind: ImportKind, filename: string | null, filesTotal: number, spoolPath: string): Promise<ImportView> {
    const rows: ImportRow[] = await this.dataSource.query(
      `INSERT INTO imports (state, kind, filename, files_total, spool_path) VALUES ('running', $1, $2, $3, $4) RETURNING ${IMPORT_COLUMNS}`,
      [kind, filename, filesTotal, spoolPath],
    );
    return toView(rows[0]);
  }

  @GenerateSql({ params: [String(EXAMPLE.import)] })
  async findById(id: string): Promise<ImportView | undefined> {
    const rows: ImportRow[] = await this.dataSource.query(`SELECT ${IMPORT_COLUMNS} FROM imports WHERE id = $1`, [id]);
    return rows.length > 0 ? toView(rows[0]) : undefined;
  }

  /** The imports still to finish, oldest first. */
  @GenerateSql()
  async running(): Promise<ImportView[]> {
    const rows: ImportRow[] = await this.dataSource.query(`SELECT ${IMPORT_COLUMNS} FROM imports WHERE state = 'running' ORDER BY id`);
    return rows.map(toView);
  }

  /** Where a (resumed) import goes on: the position after its last finished entry (entries finish in order). */
  @GenerateSql({ params: [EXAMPLE.import] })
  async nextPosition(importId: number): Promise<number> {
    const rows: { next: number }[] = await this.dataSource.query(`SELECT coalesce(max(position) + 1, 0)::int AS next FROM import_entries WHERE import_id = $1`, [importId]);
    return rows[0].next;
  }

  /**
   * Writes an entry and adds it to the import's counters, on `query` (inside the transaction that
   * stores the file's games) or in a transaction of its own; answers the import as it is then. An
   * entry written before (a resumed import) changes nothing, and answers undefined.
   */
  @GenerateSql({
    name: 'in a transaction of its own',
    params: [EXAMPLE.import, { position: 0, path: 'games/one.sgf', outcome: 'indexed', uploadId: null, gameIds: [Number(EXAMPLE.game)], problem: null, gamesStored: 1, duplicates: 0 }],
  })
  async record(importId: number, entry: ImportEntryRecord, query?: Query): Promise<ImportView | undefined> {
    const write = async (run: Query): Promise<ImportView | undefined> => {
      const inserted = await run<{ position: number }>(
        `INSERT INTO import_entries (import_id, position, path, outcome, upload_id, game_ids, problem)
         VALUES ($1, $2, $3, $4, $5, $6::bigint[], $7::jsonb) ON CONFLICT (import_id, position) DO NOTHING RETURNING position`,
        [importId, entry.position, entry.path, entry.outcome, entry.uploadId, entry.gameIds, entry.problem === null ? null : JSON.stringify(entry.problem)],
      );
      if (inserted.length === 0) return undefined;
      const rows = await run<ImportRow>(
        // Wrapped in a SELECT: TypeORM answers an UPDATE's own RETURNING as [rows, count].
        `WITH counted AS (
           UPDATE imports SET files_done = files_done + 1, games_stored = games_stored + $2, duplicates = duplicates + $3,
             refused = refused + $4, updated_at = now() WHERE id = $1 RETURNING ${IMPORT_COLUMNS}
         ) SELECT * FROM counted`,
        [importId, entry.gamesStored, entry.duplicates, entry.outcome === 'refused' ? 1 : 0],
      );
      return toView(rows[0]);
    };
    if (query) return write(query);
    return this.dataSource.transaction((manager) => write((sql, params) => manager.query(sql, params)));
  }

  @GenerateSql({
    params: [EXAMPLE.import, 'failed', { type: 'about:blank', title: 'Service Unavailable', status: 503, code: 'service.unavailable', detail: 'an example failure' }],
  })
  async finish(importId: number, state: Exclude<ImportState, 'running'>, problem: ProblemDetails | null = null): Promise<void> {
    await this.dataSource.query(`UPDATE imports SET state = $2, problem = $3::jsonb, updated_at = now() WHERE id = $1`, [
      importId,
      state,
      problem === null ? null : JSON.stringify(problem),
    ]);
  }

  /** Up to `limit` finished entries after `afterPosition`, in order: a page of a keyset walk. */
  @GenerateSql({ params: [String(EXAMPLE.import), -1, 100] })
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
}

function toView(row: ImportRow): ImportView {
  return {
    id: Number(row.id),
    state: row.state,
    kind: row.kind,
    filename: row.filename,
    filesTotal: row.files_total,
    filesDone: row.files_done,
    gamesStored: row.games_stored,
    duplicates: row.duplicates,
    refused: row.refused,
    spoolPath: row.spool_path,
    problem: row.problem,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
