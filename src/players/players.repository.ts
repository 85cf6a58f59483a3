import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import type { Family, PlayerOutcome } from '../formats/plugin.js';
import { nameKeyMatches } from '../common/name-key.js';
import { IS_COPY } from '../catalog/identity.sql.js';

export interface PlayerRow {
  readonly key: string;
  readonly name: string;
  readonly games: number;
}

export interface OutcomeCount {
  readonly family: Family | null;
  readonly outcome: PlayerOutcome | null;
  readonly count: number;
}

export interface PlayerGameRow {
  readonly gameId: number;
  readonly seat: number;
  readonly outcome: PlayerOutcome | null;
  readonly family: Family | null;
  readonly publisher: string | null;
  readonly result: string | null;
  readonly uploadedAt: Date;
}

/**
 * All SQL about players; every query reads game_players through an index on the folded name. The
 * SQL sent is in src/queries/players.repository.sql.
 */
@Injectable()
export class PlayersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Players whose folded name contains `part` (or, for short parts, equals it), by key after `after`. */
  @GenerateSql()
  async find(part: string, after: string | undefined, limit: number): Promise<PlayerRow[]> {
    const params: unknown[] = [];
    const param = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const rows: { key: string; name: string; games: string }[] = await this.dataSource.query(
      `SELECT p.name_key AS key, min(p.name) AS name, count(*) AS games
       FROM game_players p
       WHERE ${nameKeyMatches('p.name_key', part, param)}${after === undefined ? '' : ` AND p.name_key > ${param(after)}`}
       GROUP BY p.name_key ORDER BY p.name_key LIMIT ${param(limit)}`,
      params,
    );
    return rows.map((row) => ({ key: row.key, name: row.name, games: Number(row.games) }));
  }

  /** How many of the player's games ended how, per family; each game once (a copy of a game stored is not counted again: docs/identity.md). */
  @GenerateSql()
  async outcomes(key: string): Promise<OutcomeCount[]> {
    const rows: { family: Family | null; outcome: PlayerOutcome | null; count: string }[] = await this.dataSource.query(
      `SELECT fa.name AS family, p.outcome, count(*) AS count
       FROM game_players p JOIN games g ON g.id = p.game_id LEFT JOIN families fa ON fa.id = g.family_id
       WHERE p.name_key = $1 AND NOT ${IS_COPY} GROUP BY fa.name, p.outcome`,
      [key],
    );
    return rows.map((row) => ({ family: row.family, outcome: row.outcome, count: Number(row.count) }));
  }

  /** The names the player's files write. */
  @GenerateSql()
  async names(key: string, limit: number): Promise<string[]> {
    const rows: { name: string }[] = await this.dataSource.query(
      `SELECT DISTINCT name FROM game_players WHERE name_key = $1 ORDER BY name LIMIT $2`,
      [key, limit],
    );
    return rows.map((row) => row.name);
  }

  /** The player's games, newest first, before `beforeId`. */
  @GenerateSql()
  async games(key: string, beforeId: number | undefined, limit: number): Promise<PlayerGameRow[]> {
    const rows: { game_id: string; seat: number; outcome: PlayerOutcome | null; family: Family | null; publisher: string | null; result: string | null; uploaded_at: Date }[] =
      await this.dataSource.query(
        `SELECT p.game_id, p.seat, p.outcome, fa.name AS family, fm.publisher, a.result, g.uploaded_at
         FROM game_players p JOIN games g ON g.id = p.game_id LEFT JOIN game_analyses a ON a.game_id = p.game_id
              LEFT JOIN formats fm ON fm.id = g.format_id LEFT JOIN families fa ON fa.id = g.family_id
         WHERE p.name_key = $1 AND ($2::bigint IS NULL OR p.game_id < $2)
         ORDER BY p.game_id DESC, p.seat LIMIT $3`,
        [key, beforeId ?? null, limit],
      );
    return rows.map((row) => ({
      gameId: Number(row.game_id),
      seat: row.seat,
      outcome: row.outcome,
      family: row.family,
      publisher: row.publisher,
      result: row.result,
      uploadedAt: row.uploaded_at,
    }));
  }
}
