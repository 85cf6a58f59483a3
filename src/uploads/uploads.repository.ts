import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import type { Query } from '../database/sql.js';
import { GamesWriteRepository } from '../games/games-write.repository.js';
import type { NewGame } from '../games/games-write.repository.js';
import type { UploadGameOutcome } from './dto/upload.dto.js';

/** A kept file as stored: its columns and its games in file order. */
export interface UploadView {
  readonly id: number;
  readonly sha256: string;
  readonly size: number;
  readonly mediaType: string;
  readonly filename: string | null;
  readonly publisher: string | null;
  readonly version: string | null;
  /** The account that published the file (src/accounts); null for none. */
  readonly owner: string | null;
  readonly uploadedAt: Date;
  readonly games: readonly UploadGameView[];
}

export interface UploadGameView {
  readonly position: number;
  readonly start: number;
  readonly end: number;
  readonly outcome: UploadGameOutcome;
  readonly gameId: number | null;
}

/** One game of a new upload: a game to store, or the id of the game that already has its bytes. */
export type NewUploadGame =
  | { readonly start: number; readonly end: number; readonly game: Omit<NewGame, 'inUpload'> }
  | { readonly start: number; readonly end: number; readonly duplicateOf: number };

/**
 * Work that must commit or roll back with an upload (e.g. a bulk import's record of the file): called
 * inside its transaction once the file and its games are written, with what became of each game.
 */
export type WithinUpload = (query: Query, uploadId: number, games: readonly { readonly outcome: UploadGameOutcome; readonly gameId: number }[]) => Promise<void>;

/** What became of a game of a file kept: its byte range, its outcome and the game that holds it. */
export interface UploadGameEntry {
  readonly start: number;
  readonly end: number;
  readonly outcome: UploadGameOutcome;
  readonly gameId: number;
}

/** Work that must commit or roll back with several files kept at once (their import records): each file kept, with its games in file order. */
export type WithinUploads = (query: Query, stored: readonly { readonly index: number; readonly uploadId: number; readonly games: readonly UploadGameEntry[] }[]) => Promise<void>;

export interface NewUpload {
  readonly bytes: Buffer;
  readonly sha256: string;
  readonly mediaType: string;
  readonly filename: string | null;
  readonly publisher: string | null;
  readonly version: string | null;
  /** The account that published the file, and so its games (src/accounts); null for none. */
  readonly owner: string | null;
  readonly games: readonly NewUploadGame[];
}

interface UploadRow {
  id: string;
  sha256: string;
  size: number;
  media_type: string;
  filename: string | null;
  publisher: string | null;
  version: string | null;
  owner: string | null;
  uploaded_at: Date;
}

interface UploadGameRow {
  position: number;
  start_offset: number;
  end_offset: number;
  outcome: UploadGameOutcome;
  game_id: string | null;
}

/**
 * The SQL of kept files and their games (their games' own rows are GamesWriteRepository's). The SQL
 * sent is in src/queries/uploads.repository.sql.
 */
@Injectable()
export class UploadsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly games: GamesWriteRepository,
  ) {}

  @GenerateSql()
  async findIdBySha256(sha256: string): Promise<number | undefined> {
    const rows: { id: string }[] = await this.dataSource.query(`SELECT id FROM uploads WHERE sha256 = decode($1, 'hex')`, [sha256]);
    return rows.length > 0 ? Number(rows[0].id) : undefined;
  }

  @GenerateSql()
  async findById(id: string): Promise<UploadView | undefined> {
    const rows: UploadRow[] = await this.dataSource.query(
      `SELECT id, encode(sha256, 'hex') AS sha256, size, media_type, filename, publisher, version, owner, uploaded_at FROM uploads WHERE id = $1`,
      [id],
    );
    if (rows.length === 0) return undefined;
    const games: UploadGameRow[] = await this.dataSource.query(
      `SELECT position, start_offset, end_offset, outcome, game_id FROM upload_games WHERE upload_id = $1 ORDER BY position`,
      [id],
    );
    const row = rows[0];
    return {
      id: Number(row.id),
      sha256: row.sha256,
      size: row.size,
      mediaType: row.media_type,
      filename: row.filename,
      owner: row.owner,
      publisher: row.publisher,
      version: row.version,
      uploadedAt: row.uploaded_at,
      games: games.map((game) => ({
        position: game.position,
        start: game.start_offset,
        end: game.end_offset,
        outcome: game.outcome,
        gameId: game.game_id === null ? null : Number(game.game_id),
      })),
    };
  }

  /**
   * The kept files holding these bytes (SHA-256 in hex), by SHA-256, each with its games' ids in
   * file order and how many games it holds; on `query` (a transaction that may have kept some).
   */
  @GenerateSql()
  async findKept(sha256s: readonly string[], query: Query = (sql, params) => this.dataSource.query(sql, params)): Promise<Map<string, { id: number; gameIds: number[]; games: number }>> {
    if (sha256s.length === 0) return new Map();
    const rows = await query<{ sha256: string; id: string; game_ids: string[]; games: number }>(
      `SELECT encode(u.sha256, 'hex') AS sha256, u.id, coalesce(array_agg(g.game_id ORDER BY g.position) FILTER (WHERE g.game_id IS NOT NULL), '{}') AS game_ids, count(g.position)::int AS games
       FROM uploads u LEFT JOIN upload_games g ON g.upload_id = u.id
       WHERE u.sha256 IN (SELECT decode(h, 'hex') FROM unnest($1::text[]) AS h)
       GROUP BY u.id`,
      [sha256s],
    );
    return new Map(rows.map((row) => [row.sha256, { id: Number(row.id), gameIds: row.game_ids.map(Number), games: row.games }]));
  }

  @GenerateSql()
  async findRaw(id: string): Promise<{ raw: Buffer; sha256: string; mediaType: string; filename: string | null } | undefined> {
    const rows: { raw: Buffer; sha256: string; media_type: string; filename: string | null }[] = await this.dataSource.query(
      `SELECT raw, encode(sha256, 'hex') AS sha256, media_type, filename FROM uploads WHERE id = $1`,
      [id],
    );
    return rows.length > 0 ? { raw: rows[0].raw, sha256: rows[0].sha256, mediaType: rows[0].media_type, filename: rows[0].filename } : undefined;
  }

  /**
   * Keeps the file and stores its new games through the games' writer, in one of its transactions:
   * all of it or nothing. A game whose bytes another game has (stored meanwhile, or earlier in the
   * same file) becomes a duplicate of it. Undefined when the same file was kept meanwhile (a racing
   * upload): the caller reads that one.
   */
  @GenerateSql()
  async insert(upload: NewUpload, within?: WithinUpload): Promise<number | undefined> {
    const [id] = await this.insertMany([upload], within && ((query, stored) => within(query, stored[0].uploadId, stored[0].games)));
    return id;
  }

  /**
   * Keeps several files and stores their new games in one transaction, a statement for all the
   * files, one for their games (a batch at a time), one for their games' places: a folder of
   * single-game files goes in at nearly a collection's pace. `within` runs in it with what became
   * of each file kept. One id per file, in order; undefined for a file whose bytes were kept
   * meanwhile or earlier in the list.
   */
  @GenerateSql()
  async insertMany(uploads: readonly NewUpload[], within?: WithinUploads): Promise<(number | undefined)[]> {
    return this.games.transaction(async (query) => {
      const params: unknown[] = [
        JSON.stringify(uploads.map((upload, index) => ({ i: index + 1, sha256: upload.sha256, size: upload.bytes.length, media_type: upload.mediaType, filename: upload.filename, publisher: upload.publisher, version: upload.version, owner: upload.owner }))),
      ];
      // Each file's bytes a binary parameter of its own (in an array literal they would go as hex).
      const raws = uploads.map((upload) => `$${params.push(upload.bytes)}::bytea`);
      const rows = await query<{ id: string; i: number }>(
        `WITH made AS (
           INSERT INTO uploads (sha256, size, media_type, filename, publisher, version, raw, owner)
           SELECT decode(u.sha256, 'hex'), u.size, u.media_type, u.filename, u.publisher, u.version, r.raw, u.owner
           FROM json_to_recordset($1::json) AS u(i int, sha256 text, size int, media_type text, filename text, publisher text, version text, owner text)
           JOIN unnest(ARRAY[${raws.join(', ')}]) WITH ORDINALITY AS r(raw, i) ON r.i = u.i
           ORDER BY u.i
           ON CONFLICT (sha256) DO NOTHING RETURNING id, encode(sha256, 'hex') AS sha256
         )
         SELECT m.id, min(u.i) AS i FROM made m JOIN json_to_recordset($1::json) AS u(i int, sha256 text) ON u.sha256 = m.sha256 GROUP BY m.id`,
        params,
      );
      const ids: (number | undefined)[] = uploads.map(() => undefined);
      for (const row of rows) ids[row.i - 1] = Number(row.id);
      const kept = uploads.flatMap((upload, index) => (ids[index] === undefined ? [] : [{ index, upload, uploadId: ids[index]! }]));
      if (kept.length === 0) return ids;
      const fresh = kept.flatMap(({ upload, uploadId }) =>
        upload.games.flatMap((entry) => ('game' in entry ? [{ ...entry.game, owner: upload.owner, inUpload: { uploadId, start: entry.start, end: entry.end } }] : [])),
      );
      const inserted = await this.games.insertAll(fresh, query);
      // Games not inserted have bytes the archive has (stored meanwhile, or earlier in these files): duplicates of that game.
      const twins = await this.games.idsBySha256(
        fresh.filter((_, index) => !inserted[index].created).map((game) => game.sha256),
        query,
      );
      let next = 0;
      const stored = kept.map(({ index, upload, uploadId }) => ({
        index,
        uploadId,
        games: upload.games.map((entry): UploadGameEntry => {
          if ('duplicateOf' in entry) return { start: entry.start, end: entry.end, outcome: 'duplicate', gameId: entry.duplicateOf };
          const made = inserted[next++];
          if (made.created) return { start: entry.start, end: entry.end, outcome: entry.game.record.analysis ? 'indexed' : 'stored', gameId: made.id };
          return { start: entry.start, end: entry.end, outcome: 'duplicate', gameId: twins.get(entry.game.sha256)! };
        }),
      }));
      const places = stored.flatMap(({ uploadId, games }) => games.map((game, position) => ({ uploadId, position, ...game })));
      await query(
        `INSERT INTO upload_games (upload_id, position, start_offset, end_offset, outcome, game_id)
         SELECT e.upload_id, e.position, e.start_offset, e.end_offset, e.outcome, e.game_id
         FROM unnest($1::bigint[], $2::int[], $3::int[], $4::int[], $5::text[], $6::bigint[]) AS e(upload_id, position, start_offset, end_offset, outcome, game_id)`,
        [places.map((e) => e.uploadId), places.map((e) => e.position), places.map((e) => e.start), places.map((e) => e.end), places.map((e) => e.outcome), places.map((e) => e.gameId)],
      );
      await within?.(query, stored);
      return ids;
    });
  }
}
