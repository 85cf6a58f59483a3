import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import type { Family, PlayerEntry } from '../formats/plugin.js';
import { playersByGame, toRaw } from '../catalog/game-rows.js';
import type { PlayerRow, RawRow } from '../catalog/game-rows.js';
import { sortsByDay, walksUploadTime } from '../catalog/game-view.js';
import type { GameFilters, RawGame } from '../catalog/game-view.js';
import { whereClause } from '../catalog/search-filters.sql.js';
import { orderOf } from './games-search.repository.js';
import { BATCH_RAW_SOURCES, NAME_SOURCES, PLAYERS_OF, RAW_COLUMNS, UPLOADED_KEY } from '../catalog/games.sql.js';

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

/**
 * What a bulk export (`GET` and `POST /games/export`) reads beside the views: where the games of a
 * search lie, in its order, with their sizes, and the stored files with their manifest entries.
 * The searches' conditions are the read model's (src/catalog/search-filters.sql.ts), their order
 * games-search.repository.ts's. The SQL sent is in src/queries/games-export.repository.sql.
 */
@Injectable()
export class GamesExportRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stored files with what an export lists beside them (family, upload time, players); in no particular order, missing ids left out. */
  @GenerateSql()
  async filesOf(ids: readonly number[]): Promise<ExportedFile[]> {
    const rows: (RawRow & { id: string; uploaded_at: Date })[] = await this.dataSource.query(
      `SELECT g.id, g.uploaded_at, ${RAW_COLUMNS} FROM games g ${NAME_SOURCES} ${BATCH_RAW_SOURCES} WHERE g.id = ANY($1::bigint[])`,
      [ids],
    );
    const gameIds = rows.map((row) => Number(row.id));
    const players = playersByGame(gameIds.length === 0 ? [] : await this.dataSource.query<PlayerRow[]>(PLAYERS_OF, [gameIds]));
    return rows.map((row) => ({ ...toRaw(row), id: Number(row.id), family: row.family, uploadedAt: row.uploaded_at, players: players.get(Number(row.id)) ?? [] }));
  }

  /**
   * Where the games matching a search lie, in its order: `limit` games from `offset` on, past the
   * position in `filters.past*` (keyset pagination), each with its size and the keys a cursor needs.
   * Only the keys the search's order goes by are written: then a search in upload order without
   * filters on the analysis reads no analysis (PostgreSQL drops the unused left join).
   */
  @GenerateSql()
  async exportKeys(filters: GameFilters, limit: number, offset = 0): Promise<ExportKey[]> {
    const { where, params } = whereClause(filters, offset + limit);
    params.push(limit, offset);
    const day = sortsByDay(filters.sort) ? `to_char(a.date_played, 'YYYY-MM-DD') AS date_played` : 'NULL AS date_played';
    const uploaded = walksUploadTime(filters) ? UPLOADED_KEY : 'NULL AS uploaded_key';
    const rows: { id: string; size: number; date_played: string | null; uploaded_key: string | null }[] = await this.dataSource.query(
      `SELECT g.id, g.size, ${day}, ${uploaded}
       FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${orderOf(filters)}
       LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map((row) => ({
      id: Number(row.id),
      size: Number(row.size),
      day: row.date_played,
      uploadedKey: row.uploaded_key,
    }));
  }

  /** The sizes of the games among `ids` that exist. */
  @GenerateSql()
  async sizesOf(ids: readonly number[]): Promise<Map<number, number>> {
    const rows: { id: string; size: number }[] = await this.dataSource.query(`SELECT id, size FROM games WHERE id = ANY($1::bigint[])`, [ids]);
    return new Map(rows.map((row) => [Number(row.id), Number(row.size)]));
  }
}
