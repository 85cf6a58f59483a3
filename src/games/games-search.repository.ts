import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import { playersByGame, toView } from '../catalog/game-rows.js';
import type { PlayerRow, SummaryRow } from '../catalog/game-rows.js';
import { walksUploadTime } from '../catalog/game-view.js';
import type { GameFilters, SearchHit } from '../catalog/game-view.js';
import { NAME_SOURCES, PLAYERS_OF, SUMMARY_COLUMNS, UPLOADED_KEY } from '../catalog/games.sql.js';
import { whereClause } from '../catalog/search-filters.sql.js';

/**
 * The searches of `GET /games`, and the walk of `POST /games/reindex` over the same filters: which
 * games match (the read model's {@link whereClause}), in what order, past which cursor.
 * {@link orderOf} is the export's too (games-export.repository.ts). The SQL sent is in
 * src/queries/games-search.repository.sql.
 */
@Injectable()
export class GamesSearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * In upload order (ids grow with upload time), newest first unless asked; keyset pagination on the
   * id (and the day played, or the upload time, when the search goes by them). Each game comes with
   * its upload time to the microsecond, which a cursor needs to continue a search by upload time.
   */
  @GenerateSql()
  async search(filters: GameFilters, limit: number): Promise<SearchHit[]> {
    const { where, params } = whereClause(filters, limit);
    const param = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const rows: (SummaryRow & { uploaded_key: string })[] = await this.dataSource.query(
      `SELECT ${SUMMARY_COLUMNS}, ${UPLOADED_KEY}
       FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${orderOf(filters)}
       LIMIT ${param(limit)}`,
      params,
    );
    const ids = rows.map((row) => Number(row.id));
    const players = playersByGame(ids.length === 0 ? [] : await this.dataSource.query<PlayerRow[]>(PLAYERS_OF, [ids]));
    return rows.map((row) => ({ game: toView(row, players.get(Number(row.id)) ?? []), uploadedKey: row.uploaded_key }));
  }

  /** Ids of the games matching the filters, ascending after `afterId`: the order bulk re-indexing walks in. */
  @GenerateSql()
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
}

/** The ORDER BY of a search (on `games g` joined with `game_analyses a`). */
export function orderOf(filters: GameFilters): string {
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
