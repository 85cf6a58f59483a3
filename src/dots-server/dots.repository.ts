import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import { EXAMPLE } from '../games/sql-examples.js';
import type { PlayerOutcome } from '../formats/plugin.js';
import type { GameOptions } from './protocol.js';
import type { SavedGame } from './store.js';

/** A row of `dots_accounts`. */
export interface AccountRow {
  readonly login: string;
  readonly passwordHash: string;
}

/** A row of `dots_games`, as a restart reads it. */
export interface DotsGameRow {
  readonly id: number;
  readonly state: SavedGame['state'] | 'unfinished';
  readonly options: GameOptions;
  readonly logins: readonly string[];
  readonly transcript: string | null;
}

interface RawGameRow {
  id: string;
  state: DotsGameRow['state'];
  players: number;
  width: number;
  height: number;
  seconds: number;
  extra_move: boolean;
  logins: string[];
  transcript: string | null;
}

/**
 * All SQL of the Dots server: accounts, games, and the archive's outcomes of a login. The SQL sent is
 * in src/queries/dots.repository.sql.
 */
@Injectable()
export class DotsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** False when the login is taken. */
  @GenerateSql({ params: ['bob', 'scrypt$example$hash'] })
  async insertAccount(login: string, passwordHash: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO dots_accounts (login, password_hash) VALUES ($1, $2) ON CONFLICT (login) DO NOTHING RETURNING login`,
      [login, passwordHash],
    );
    return rows.length === 1;
  }

  @GenerateSql({ params: [EXAMPLE.login] })
  async account(login: string): Promise<AccountRow | undefined> {
    const rows: { login: string; password_hash: string }[] = await this.dataSource.query(`SELECT login, password_hash FROM dots_accounts WHERE login = $1`, [login]);
    return rows[0] === undefined ? undefined : { login: rows[0].login, passwordHash: rows[0].password_hash };
  }

  @GenerateSql({ params: [{ players: 2, width: 39, height: 32, seconds: 30, extraMove: false }, EXAMPLE.login] })
  async insertGame(options: GameOptions, creator: string): Promise<number> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO dots_games (state, players, width, height, seconds, extra_move, logins) VALUES ('waiting', $1, $2, $3, $4, $5, $6) RETURNING id`,
      [options.players, options.width, options.height, options.seconds, options.extraMove, [creator]],
    );
    return Number(rows[0].id);
  }

  @GenerateSql({ params: [EXAMPLE.dotsGame, 'finished', [EXAMPLE.login, 'bob'], 'an example transcript'] })
  async updateGame(id: number, state: DotsGameRow['state'], logins: readonly string[], transcript: string | null): Promise<void> {
    await this.dataSource.query(`UPDATE dots_games SET state = $2, logins = $3, transcript = $4, updated_at = now() WHERE id = $1`, [id, state, [...logins], transcript]);
  }

  /**
   * Several games' rows in one statement, so one commit (the lobby's group commit): each game's
   * state, logins and transcript, as JSON records.
   */
  @GenerateSql({
    params: [[{ id: EXAMPLE.dotsGame, state: 'running', options: { players: 2, width: 39, height: 32, seconds: 30, extraMove: false }, players: [EXAMPLE.login, 'bob'], transcript: 'an example transcript' }]],
  })
  async updateGames(games: readonly SavedGame[]): Promise<void> {
    if (games.length === 0) return;
    const records = games.map((game) => ({ id: game.id, state: game.state, logins: [...game.players], transcript: game.transcript }));
    await this.dataSource.query(
      `UPDATE dots_games AS g SET state = v.state, logins = v.logins, transcript = v.transcript, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb) AS v(id bigint, state text, logins text[], transcript text) WHERE g.id = v.id`,
      [JSON.stringify(records)],
    );
  }

  @GenerateSql({ params: [EXAMPLE.dotsGame, Number(EXAMPLE.game)] })
  async markArchived(id: number, gameId: number): Promise<void> {
    await this.dataSource.query(`UPDATE dots_games SET archived_game_id = $2, updated_at = now() WHERE id = $1`, [id, gameId]);
  }

  /** Games a stop interrupted (waiting or running). */
  @GenerateSql()
  async openGames(): Promise<DotsGameRow[]> {
    return gamesWhere(this.dataSource, `state IN ('waiting', 'running')`);
  }

  /** Ended games (finished or unfinished) whose transcript is not in the archive yet. */
  @GenerateSql()
  async unarchivedGames(): Promise<DotsGameRow[]> {
    return gamesWhere(this.dataSource, `state IN ('finished', 'unfinished') AND archived_game_id IS NULL AND transcript IS NOT NULL`);
  }

  /** How the archived games of the player with this external id ended, by outcome. */
  @GenerateSql({ params: ['tabula-dots:alice'] })
  async outcomes(externalId: string): Promise<{ outcome: PlayerOutcome | null; count: number }[]> {
    const rows: { outcome: PlayerOutcome | null; count: string }[] = await this.dataSource.query(
      `SELECT outcome, count(*) AS count FROM game_players WHERE external_id = $1 GROUP BY outcome`,
      [externalId],
    );
    return rows.map((row) => ({ outcome: row.outcome, count: Number(row.count) }));
  }
}

/** The games `where` selects, in id order. */
async function gamesWhere(dataSource: DataSource, where: string): Promise<DotsGameRow[]> {
  const rows: RawGameRow[] = await dataSource.query(
    `SELECT id, state, players, width, height, seconds, extra_move, logins, transcript FROM dots_games WHERE ${where} ORDER BY id`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    state: row.state,
    options: { players: row.players, width: row.width, height: row.height, seconds: row.seconds, extraMove: row.extra_move },
    logins: row.logins,
    transcript: row.transcript,
  }));
}
