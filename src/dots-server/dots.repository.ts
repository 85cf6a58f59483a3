import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/sql.js';
import type { PlayerOutcome } from '../formats/plugin.js';
import { loginKey } from './login-key.js';
import type { GameOptions } from './protocol.js';
import type { SavedGame } from './store.js';

/** The games that are waiting or running. */
const OPEN = `state IN ('waiting', 'running')`;
/** `g` (a dots_games row) lives on a node that is in dots_nodes. */
const ON_LIVE_NODE = `EXISTS (SELECT 1 FROM dots_nodes n WHERE n.node = g.node)`;

/** A notification on one of the channels a node listens on. */
export interface DotsNotification {
  readonly channel: string;
  readonly payload: string;
}

/** The connection a node listens on; `lost` is called when it breaks (the node must listen again). */
export interface DotsListenerEvents {
  notified(notification: DotsNotification): void;
  lost(error: Error): void;
}

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

  /**
   * False when the login is taken, or its key (login-key.ts: what a reader could take it for) is
   * another account's: either unique index refuses the row.
   */
  @GenerateSql()
  async insertAccount(login: string, passwordHash: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO dots_accounts (login, login_key, password_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING login`,
      [login, loginKey(login), passwordHash],
    );
    return rows.length === 1;
  }

  /** Whether an account has the login or its key (so that REG makes no hash for a taken one). */
  @GenerateSql()
  async loginTaken(login: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM dots_accounts WHERE login = $1 OR login_key = $2 LIMIT 1`, [login, loginKey(login)]);
    return rows.length > 0;
  }

  /** A stronger hash of the same password, written only if the account still has the hash it replaces (false otherwise). */
  @GenerateSql()
  async replacePasswordHash(login: string, before: string, after: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH replaced AS (UPDATE dots_accounts SET password_hash = $3 WHERE login = $1 AND password_hash = $2 RETURNING login) SELECT login FROM replaced`,
      [login, before, after],
    );
    return rows.length === 1;
  }

  @GenerateSql()
  async account(login: string): Promise<AccountRow | undefined> {
    const rows: { login: string; password_hash: string }[] = await this.dataSource.query(`SELECT login, password_hash FROM dots_accounts WHERE login = $1`, [login]);
    return rows[0] === undefined ? undefined : { login: rows[0].login, passwordHash: rows[0].password_hash };
  }

  /** A new waiting game of `node` (null: the embedded database's one process). */
  @GenerateSql()
  async insertGame(options: GameOptions, creator: string, node: string | null = null): Promise<number> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO dots_games (state, players, width, height, seconds, extra_move, logins, node) VALUES ('waiting', $1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [options.players, options.width, options.height, options.seconds, options.extraMove, [creator], node],
    );
    return Number(rows[0].id);
  }

  @GenerateSql()
  async updateGame(id: number, state: DotsGameRow['state'], logins: readonly string[], transcript: string | null): Promise<void> {
    await this.dataSource.query(`UPDATE dots_games SET state = $2, logins = $3, transcript = $4, updated_at = now() WHERE id = $1`, [id, state, [...logins], transcript]);
  }

  /**
   * Several games' rows in one statement, so one commit (the lobby's group commit): each game's
   * state, logins and transcript, as JSON records.
   */
  /**
   * Only the rows `node` still owns are written (null: the embedded database's, which owns them
   * all): a node another declared dead and whose games it ended writes nothing over them. Answers
   * the ids written.
   */
  @GenerateSql()
  async updateGames(games: readonly SavedGame[], node: string | null): Promise<number[]> {
    if (games.length === 0) return [];
    const records = games.map((game) => ({ id: game.id, state: game.state, logins: [...game.players], transcript: game.transcript }));
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH written AS (
         UPDATE dots_games AS g SET state = v.state, logins = v.logins, transcript = v.transcript, updated_at = now()
           FROM jsonb_to_recordset($1::jsonb) AS v(id bigint, state text, logins text[], transcript text)
          WHERE g.id = v.id AND g.node IS NOT DISTINCT FROM $2
         RETURNING g.id
       ) SELECT id FROM written`,
      [JSON.stringify(records), node],
    );
    return rows.map((row) => Number(row.id));
  }

  @GenerateSql()
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
  @GenerateSql()
  async outcomes(externalId: string): Promise<{ outcome: PlayerOutcome | null; count: number }[]> {
    const rows: { outcome: PlayerOutcome | null; count: string }[] = await this.dataSource.query(
      `SELECT outcome, count(*) AS count FROM game_players WHERE external_id = $1 GROUP BY outcome`,
      [externalId],
    );
    return rows.map((row) => ({ outcome: row.outcome, count: Number(row.count) }));
  }

  // The cluster (issue 32): nodes, login claims, games by node, messages between nodes.

  /**
   * Takes a connection of the pool and LISTENs on each channel there, for as long as `signal` is
   * not aborted; `events.lost` is told when it breaks. Resolves once listening, with a promise that
   * settles when the connection has been given back after the abort.
   */
  @GenerateSql()
  async listen(channels: readonly string[], events: DotsListenerEvents, signal: AbortSignal): Promise<{ closed: Promise<void> }> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as {
      on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
      on(event: 'error' | 'end', listener: (error?: Error) => void): void;
    };
    let broken = false;
    const lose = (error?: Error) => {
      if (broken || signal.aborted) return;
      broken = true;
      events.lost(error ?? new Error('the listening connection ended'));
    };
    client.on('error', lose);
    client.on('end', lose);
    client.on('notification', (message) => events.notified({ channel: message.channel, payload: message.payload ?? '' }));
    const stop = async () => {
      try {
        if (!broken) await runner.query(`UNLISTEN *`);
      } catch {
        // The connection is going away anyway.
      }
      await runner.release();
    };
    try {
      for (const channel of channels) await runner.query(`LISTEN ${quoteIdentifier(channel)}`);
    } catch (error) {
      broken = true;
      await runner.release();
      throw error;
    }
    if (signal.aborted) return { closed: stop() };
    return { closed: new Promise<void>((resolve) => signal.addEventListener('abort', () => void stop().then(resolve), { once: true })) };
  }

  /**
   * Sends the messages, in order, in one statement (so one transaction: PostgreSQL delivers them in
   * that order, after the commit). A payload must stay under 8000 bytes.
   */
  @GenerateSql()
  async notify(messages: readonly DotsNotification[]): Promise<void> {
    if (messages.length === 0) return;
    await this.dataSource.query(`SELECT count(pg_notify(m.channel, m.payload)) FROM unnest($1::text[], $2::text[]) AS m(channel, payload)`, [
      messages.map((m) => m.channel),
      messages.map((m) => m.payload),
    ]);
  }

  /** Enters the node in dots_nodes with a fresh heartbeat (again, after another node declared it dead). */
  @GenerateSql()
  async registerNode(node: string, label: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO dots_nodes (node, label) VALUES ($1, $2) ON CONFLICT (node) DO UPDATE SET heartbeat_at = now()`,
      [node, label],
    );
  }

  /** The node's heartbeat: false when its row is gone (another node declared it dead). */
  @GenerateSql()
  async beat(node: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH beaten AS (UPDATE dots_nodes SET heartbeat_at = now() WHERE node = $1 RETURNING node) SELECT node FROM beaten`,
      [node],
    );
    return rows.length === 1;
  }

  /**
   * The node leaves the cluster, with its login claims: at a clean stop, and at a start (the games of
   * its previous run, no longer of a listed node, are then claimed and ended like any dead node's).
   */
  @GenerateSql()
  async removeNode(node: string): Promise<void> {
    await this.dataSource.query(`WITH gone AS (DELETE FROM dots_nodes WHERE node = $1) DELETE FROM dots_logins WHERE node = $1`, [node]);
  }

  /**
   * Removes the nodes other than `node` whose heartbeat is older than `leaseMs`, and the login
   * claims of nodes no longer listed; answers the nodes removed.
   */
  @GenerateSql()
  async removeDeadNodes(node: string, leaseMs: number): Promise<string[]> {
    const rows: { node: string }[] = await this.dataSource.query(
      `WITH dead AS (
         DELETE FROM dots_nodes d WHERE d.node <> $1 AND d.heartbeat_at < now() - $2 * interval '1 millisecond' RETURNING d.node
       ), claims AS (
         DELETE FROM dots_logins l WHERE l.node IN (SELECT node FROM dead) OR NOT EXISTS (SELECT 1 FROM dots_nodes d WHERE d.node = l.node)
       )
       SELECT node FROM dead`,
      [node, leaseMs],
    );
    return rows.map((row) => row.node);
  }

  /**
   * Claims for `node` the games no live node has (their node is not in dots_nodes, or null): the
   * open ones, to be ended, and the ended ones not archived yet; rows another node is claiming
   * at the same moment are skipped.
   */
  @GenerateSql()
  async claimOrphanGames(node: string): Promise<DotsGameRow[]> {
    const rows: RawGameRow[] = await this.dataSource.query(
      `WITH orphans AS (
         SELECT id FROM dots_games g
          WHERE (${OPEN} OR (state IN ('finished', 'unfinished') AND archived_game_id IS NULL AND transcript IS NOT NULL))
            AND (g.node IS NULL OR NOT ${ON_LIVE_NODE})
          ORDER BY id FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE dots_games g SET node = $1 FROM orphans o WHERE g.id = o.id
         RETURNING g.id, g.state, g.players, g.width, g.height, g.seconds, g.extra_move, g.logins, g.transcript
       )
       SELECT * FROM claimed ORDER BY id`,
      [node],
    );
    return rows.map(gameRow);
  }

  /** Ends an open game `node` owns (as updateGame); false when it is not open or not `node`'s. */
  @GenerateSql()
  async endGame(id: number, node: string, state: 'abandoned' | 'unfinished', logins: readonly string[], transcript: string | null): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH ended AS (
         UPDATE dots_games g SET state = $3, logins = $4, transcript = $5, updated_at = now() WHERE id = $1 AND node = $2 AND ${OPEN} RETURNING id
       ) SELECT id FROM ended`,
      [id, node, state, [...logins], transcript],
    );
    return rows.length === 1;
  }

  /** The open games of live nodes other than `node` (GLS). */
  @GenerateSql()
  async gamesElsewhere(node: string): Promise<DotsGameRow[]> {
    return gamesWhere(this.dataSource, `${OPEN} AND g.node <> $1 AND ${ON_LIVE_NODE}`, [node]);
  }

  /** The live node other than `node` an open game lives on, if any. */
  @GenerateSql()
  async homeOf(id: number, node: string): Promise<string | undefined> {
    const rows: { node: string }[] = await this.dataSource.query(`SELECT g.node FROM dots_games g WHERE g.id = $1 AND ${OPEN} AND g.node <> $2 AND ${ON_LIVE_NODE}`, [id, node]);
    return rows[0]?.node;
  }

  /**
   * The open games of live nodes other than `node` that name the login among their players, newest
   * first: where a login that logs in may still sit (its node says whether it does).
   */
  @GenerateSql()
  async seatsElsewhere(login: string, node: string): Promise<{ id: number; node: string }[]> {
    const rows: { id: string; node: string }[] = await this.dataSource.query(
      `SELECT g.id, g.node FROM dots_games g WHERE ${OPEN} AND $1 = ANY (g.logins) AND g.node <> $2 AND ${ON_LIVE_NODE} ORDER BY g.id DESC`,
      [login, node],
    );
    return rows.map((row) => ({ id: Number(row.id), node: row.node }));
  }

  /**
   * Claims the login for `node`: false when another live node has it. A claim of the same node (a
   * second connection of the login there: the newer takes over) or of a node no longer listed is
   * replaced.
   */
  @GenerateSql()
  async claimLogin(login: string, node: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO dots_logins AS l (login, node) VALUES ($1, $2)
       ON CONFLICT (login) DO UPDATE SET node = EXCLUDED.node, claimed_at = now()
        WHERE l.node = EXCLUDED.node OR NOT EXISTS (SELECT 1 FROM dots_nodes d WHERE d.node = l.node)
       RETURNING login`,
      [login, node],
    );
    return rows.length === 1;
  }

  /** Gives the login back if `node` has it. */
  @GenerateSql()
  async releaseLogin(login: string, node: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM dots_logins WHERE login = $1 AND node = $2`, [login, node]);
  }
}

/** The games `where` selects, in id order. */
async function gamesWhere(dataSource: DataSource, where: string, params: unknown[] = []): Promise<DotsGameRow[]> {
  const rows: RawGameRow[] = await dataSource.query(
    `SELECT id, state, players, width, height, seconds, extra_move, logins, transcript FROM dots_games g WHERE ${where} ORDER BY id`,
    params,
  );
  return rows.map(gameRow);
}

function gameRow(row: RawGameRow): DotsGameRow {
  return {
    id: Number(row.id),
    state: row.state,
    options: { players: row.players, width: row.width, height: row.height, seconds: row.seconds, extraMove: row.extra_move },
    logins: row.logins,
    transcript: row.transcript,
  };
}

/** A channel name as an SQL identifier (LISTEN takes no parameter). */
function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
