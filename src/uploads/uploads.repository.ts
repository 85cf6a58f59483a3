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

  @GenerateSql()
  async findRaw(id: string): Promise<{ raw: Buffer; sha256: string; mediaType: string; filename: string | null } | undefined> {
    const rows: { raw: Buffer; sha256: string; media_type: string; filename: string | null }[] = await this.dataSource.query(
      `SELECT raw, encode(sha256, 'hex') AS sha256, media_type, filename FROM uploads WHERE id = $1`,
      [id],
    );
    return rows.length > 0 ? { raw: rows[0].raw, sha256: rows[0].sha256, mediaType: rows[0].media_type, filename: rows[0].filename } : undefined;
  }

  /**
   * Keeps the file and stores its new games through the games' writer, in one of its transactions: all of it or nothing. A game whose
   * bytes another game has (stored meanwhile, or earlier in the same file) becomes a duplicate of it.
   * Undefined when the same file was kept meanwhile (a racing upload): the caller reads that one.
   */
  @GenerateSql()
  async insert(upload: NewUpload, within?: WithinUpload): Promise<number | undefined> {
    return this.games.transaction(async (query) => {
      const kept = await query<{ id: string }>(
        `INSERT INTO uploads (sha256, size, media_type, filename, publisher, version, raw, owner)
         VALUES (decode($1, 'hex'), $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (sha256) DO NOTHING RETURNING id`,
        [upload.sha256, upload.bytes.length, upload.mediaType, upload.filename, upload.publisher, upload.version, upload.bytes, upload.owner],
      );
      if (kept.length === 0) return undefined;
      const uploadId = Number(kept[0].id);
      const entries: { start: number; end: number; outcome: UploadGameOutcome; gameId: number }[] = [];
      const fresh = upload.games.flatMap((entry) => ('game' in entry ? [{ ...entry.game, owner: upload.owner, inUpload: { uploadId, start: entry.start, end: entry.end } }] : []));
      const inserted = await this.games.insertAll(fresh, query);
      // Games not inserted have bytes the archive has (stored meanwhile, or earlier in this file): duplicates of that game.
      const twins = await this.games.idsBySha256(
        fresh.filter((_, index) => !inserted[index].created).map((game) => game.sha256),
        query,
      );
      let next = 0;
      for (const entry of upload.games) {
        if ('duplicateOf' in entry) {
          entries.push({ start: entry.start, end: entry.end, outcome: 'duplicate', gameId: entry.duplicateOf });
          continue;
        }
        const stored = inserted[next++];
        if (stored.created) entries.push({ start: entry.start, end: entry.end, outcome: entry.game.record.analysis ? 'indexed' : 'stored', gameId: stored.id });
        else entries.push({ start: entry.start, end: entry.end, outcome: 'duplicate', gameId: twins.get(entry.game.sha256)! });
      }
      await query(
        `INSERT INTO upload_games (upload_id, position, start_offset, end_offset, outcome, game_id)
         SELECT $1, e.position - 1, e.start_offset, e.end_offset, e.outcome, e.game_id
         FROM unnest($2::int[], $3::int[], $4::text[], $5::bigint[]) WITH ORDINALITY AS e(start_offset, end_offset, outcome, game_id, position)`,
        [uploadId, entries.map((e) => e.start), entries.map((e) => e.end), entries.map((e) => e.outcome), entries.map((e) => e.gameId)],
      );
      await within?.(query, uploadId, entries);
      return uploadId;
    });
  }
}
