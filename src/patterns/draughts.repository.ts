import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import type { GameFilters } from '../catalog/game-view.js';
import { whereClause } from '../catalog/search-filters.sql.js';

/** A game's row of `game_draughts`: its positions, and the transaction that wrote them. */
export interface DraughtsRow {
  readonly gameId: number;
  readonly plies: Uint8Array;
  readonly written: string;
}

/** Draughts search's reads of `game_draughts` (src/queries/draughts.repository.sql). */
@Injectable()
export class DraughtsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The xmin of the current snapshot: every transaction before it has ended, so a read after it sees all their rows. */
  @GenerateSql()
  async snapshotXmin(): Promise<string> {
    const rows: { xmin: string }[] = await this.dataSource.query(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`);
    return rows[0].xmin;
  }

  /** Up to `batch` rows written by transactions at or after `since` (every row when null), of games above id `after`, by id. */
  @GenerateSql()
  async rowsSince(since: string | null, after: number, batch: number): Promise<DraughtsRow[]> {
    const rows: { game_id: string; plies: Buffer; written: string }[] = await this.dataSource.query(
      `SELECT gd.game_id, gd.plies, gd.written::text AS written FROM game_draughts gd
       WHERE gd.written >= coalesce($1::xid8, '0'::xid8) AND gd.game_id > $2::bigint
       ORDER BY gd.game_id LIMIT $3::int`,
      [since, after, batch],
    );
    return rows.map((row) => ({ gameId: Number(row.game_id), plies: row.plies, written: row.written }));
  }

  /** The rows of the games among `ids`, as they stand. */
  @GenerateSql()
  async rowsOf(ids: readonly number[]): Promise<DraughtsRow[]> {
    const rows: { game_id: string; plies: Buffer; written: string }[] = await this.dataSource.query(
      `SELECT gd.game_id, gd.plies, gd.written::text AS written FROM game_draughts gd WHERE gd.game_id = ANY($1::bigint[])`,
      [ids],
    );
    return rows.map((row) => ({ gameId: Number(row.game_id), plies: row.plies, written: row.written }));
  }

  /** How many games have a row. */
  @GenerateSql()
  async count(): Promise<number> {
    const rows: { n: number }[] = await this.dataSource.query(`SELECT count(*)::int AS n FROM game_draughts`);
    return rows[0].n;
  }

  /** The games that have a row. */
  @GenerateSql()
  async gameIds(): Promise<number[]> {
    const rows: { game_id: string }[] = await this.dataSource.query(`SELECT game_id FROM game_draughts`);
    return rows.map((row) => Number(row.game_id));
  }

  /** The games among `ids` still stored that pass the filters of GET /games, with the transaction that wrote each row. */
  @GenerateSql()
  async passing(ids: readonly number[], filters: GameFilters): Promise<{ gameId: number; written: string }[]> {
    const { where, params } = whereClause(filters);
    params.push(ids);
    const rows: { game_id: string; written: string }[] = await this.dataSource.query(
      `SELECT gd.game_id, gd.written::text AS written
       FROM game_draughts gd JOIN games g ON g.id = gd.game_id LEFT JOIN game_analyses a ON a.game_id = g.id
       WHERE gd.game_id = ANY($${params.length}::bigint[])${where.length > 0 ? ` AND ${where.join(' AND ')}` : ''}`,
      params,
    );
    return rows.map((row) => ({ gameId: Number(row.game_id), written: row.written }));
  }
}
