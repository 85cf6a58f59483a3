import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import { playersByGame, toView } from '../catalog/game-rows.js';
import type { PlayerRow, SummaryRow } from '../catalog/game-rows.js';
import type { GameFilters, GameView } from '../catalog/game-view.js';
import { whereClause } from '../catalog/search-filters.sql.js';
import { NAME_SOURCES, PLAYERS_OF, SUMMARY_COLUMNS } from '../catalog/games.sql.js';
import type { FilterRow } from './pattern-filter.js';

/** A candidate's line, with what the continuations count: its result and day played. */
export interface CandidateBoard {
  readonly gameId: number;
  readonly width: number;
  readonly height: number;
  readonly changes: Uint8Array;
  /** The winner's colour, `draw`, or null when unknown (the position index's). */
  readonly result: string | null;
  readonly played: string | null;
}

/** Pattern search's reads (src/queries/patterns.repository.sql). */
@Injectable()
export class PatternsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The filter's rows written by transactions at or after `since` (every row when null), and the
   * xmin of the snapshot they were read in: every transaction before it has ended, so the next read
   * starts there.
   */
  @GenerateSql()
  async filterRows(since: string | null): Promise<{ rows: FilterRow[]; watermark: string }> {
    const rows: {
      xmin: string;
      game_id: string | null;
      family: string;
      width: number;
      height: number;
      first: Buffer;
      second: Buffer;
      written: string;
      facts: boolean;
      result: string | null;
      played: string | null;
    }[] = await this.dataSource.query(
      `SELECT x.xmin::text AS xmin, r.*
       FROM (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin) x
       LEFT JOIN LATERAL (
         SELECT gp.game_id, fa.name AS family, gp.width, gp.height, gp.first, gp.second, gp.written::text AS written,
                gp.facts, gp.result, to_char(gp.played, 'YYYY-MM-DD') AS played
         FROM game_patterns gp JOIN families fa ON fa.id = gp.family_id
         WHERE gp.written >= coalesce($1::xid8, '0'::xid8)
       ) r ON true`,
      [since],
    );
    return {
      watermark: rows[0].xmin,
      rows: rows
        .filter((row) => row.game_id !== null)
        .map((row) => ({
          gameId: Number(row.game_id),
          family: row.family,
          width: row.width,
          height: row.height,
          first: row.first,
          second: row.second,
          written: row.written,
          facts: row.facts,
          result: row.result,
          played: row.played,
        })),
    };
  }

  /** The lines of the games among `ids` as they stand, with the transaction that wrote each (the filter's orders of first taking come from them). */
  @GenerateSql()
  async changesOf(ids: readonly number[]): Promise<{ gameId: number; changes: Uint8Array; written: string }[]> {
    const rows: { game_id: string; changes: Buffer; written: string }[] = await this.dataSource.query(
      `SELECT gp.game_id, gp.changes, gp.written::text AS written FROM game_patterns gp WHERE gp.game_id = ANY($1::bigint[])`,
      [ids],
    );
    return rows.map((row) => ({ gameId: Number(row.game_id), changes: row.changes, written: row.written }));
  }

  /** The games among `ids` still in the archive that pass the filters of GET /games (those the filter's kept games were confirmed from). */
  @GenerateSql()
  async passing(ids: readonly number[], filters: GameFilters): Promise<number[]> {
    const { where, params } = whereClause(filters);
    params.push(ids);
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT g.id FROM games g${where.length > 0 ? ' LEFT JOIN game_analyses a ON a.game_id = g.id' : ''}
       WHERE g.id = ANY($${params.length}::bigint[])${where.length > 0 ? ` AND ${where.join(' AND ')}` : ''}`,
      params,
    );
    return rows.map((row) => Number(row.id));
  }

  /** The lines of the games among `ids` that pass the filters of GET /games. */
  @GenerateSql()
  async boards(ids: readonly number[], filters: GameFilters): Promise<CandidateBoard[]> {
    const { where, params } = whereClause(filters);
    params.push(ids);
    const rows: { game_id: string; width: number; height: number; changes: Buffer; result: string | null; played: string | null }[] = await this.dataSource.query(
      `SELECT gp.game_id, gp.width, gp.height, gp.changes, gpos.result, to_char(gpos.played, 'YYYY-MM-DD') AS played
       FROM game_patterns gp LEFT JOIN game_positions gpos ON gpos.game_id = gp.game_id${
         where.length > 0 ? ` JOIN games g ON g.id = gp.game_id LEFT JOIN game_analyses a ON a.game_id = g.id` : ''
       }
       WHERE gp.game_id = ANY($${params.length}::bigint[])${where.length > 0 ? ` AND ${where.join(' AND ')}` : ''}`,
      params,
    );
    return rows.map((row) => ({ gameId: Number(row.game_id), width: row.width, height: row.height, changes: row.changes, result: row.result, played: row.played }));
  }

  /** The games of a page as GET /games lists them, newest first. */
  @GenerateSql()
  async summaries(ids: readonly number[]): Promise<GameView[]> {
    if (ids.length === 0) return [];
    const rows: SummaryRow[] = await this.dataSource.query(
      `SELECT ${SUMMARY_COLUMNS} FROM games g LEFT JOIN game_analyses a ON a.game_id = g.id ${NAME_SOURCES}
       WHERE g.id = ANY($1::bigint[]) ORDER BY g.id DESC`,
      [ids],
    );
    const players = playersByGame(await this.dataSource.query(PLAYERS_OF, [rows.map((row) => Number(row.id))]) as PlayerRow[]);
    return rows.map((row) => toView(row, players.get(Number(row.id)) ?? []));
  }
}
