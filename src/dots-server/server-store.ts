import { HttpException, Inject, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AppConfig } from '../common/config.js';
import { DOTS_TRANSCRIPT, endUnfinished, transcriptExternalId } from '../formats/families/dots/transcript.js';
import { GamesService } from '../games/games.service.js';
import { AuditTrail } from '../accounts/audit-trail.js';
import { DOTS_SERVER_ACCOUNT } from '../accounts/scopes.js';
import { DotsCluster } from './cluster.js';
import { DotsRepository } from './dots.repository.js';
import type { DotsGameRow } from './dots.repository.js';
import { hashPassword, needsRehash, verifyPassword } from './passwords.js';
import type { GameOptions } from './protocol.js';
import type { DotsStore, PlayerStatistics, SavedGame } from './store.js';

/** Waits before the archive upload is tried again (the analysis queue may be full for a moment). */
const RETRY_DELAYS_MS = [500, 2000, 8000];

/**
 * The lobby's store on the archive's database: accounts with scrypt hashes, games row by row, and
 * finished games uploaded to the archive through the normal upload path (GamesService.upload, the
 * same analysis threads), as transcripts the `dots-transcript` plugin reads.
 */
@Injectable()
export class DotsServerStore implements DotsStore {
  private readonly logger = new Logger('DotsServer');
  /** A hash to check against when the login does not exist, so that both answers take as long. */
  private decoy: Promise<string> | null = null;

  constructor(
    private readonly repository: DotsRepository,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
    private readonly cluster: DotsCluster,
  ) {}

  /** The node the games of this process live on: null with the embedded database (one process). */
  private get node(): string | null {
    return this.cluster.enabled ? this.cluster.node : null;
  }

  /** False when the login is taken, or one it could be taken for (the same key, login-key.ts). */
  async register(login: string, password: string): Promise<boolean> {
    if (await this.repository.loginTaken(login)) return false;
    return this.repository.insertAccount(login, await hashPassword(password, this.config.DOTS_SCRYPT_COST));
  }

  /** Whether the password is the login's; a hash weaker than DOTS_SCRYPT_COST is then made again. */
  async verify(login: string, password: string): Promise<boolean> {
    const account = await this.repository.account(login);
    if (account === undefined) {
      this.decoy ??= hashPassword('', this.config.DOTS_SCRYPT_COST);
      await verifyPassword(password, await this.decoy);
      return false;
    }
    if (!(await verifyPassword(password, account.passwordHash))) return false;
    if (needsRehash(account.passwordHash, this.config.DOTS_SCRYPT_COST)) {
      try {
        await this.repository.replacePasswordHash(login, account.passwordHash, await hashPassword(password, this.config.DOTS_SCRYPT_COST));
      } catch (error) {
        // The login stands; the hash is made again at the next one.
        this.logger.error(`the password hash of Dots account ${login} could not be made again: ${(error as Error).message}`);
      }
    }
    return true;
  }

  createGame(options: GameOptions, creator: string): Promise<number> {
    return this.repository.insertGame(options, creator, this.node);
  }

  saveGames(games: readonly SavedGame[]): Promise<readonly number[]> {
    return this.repository.updateGames(games, this.node);
  }

  async archive(game: SavedGame): Promise<void> {
    if (game.transcript === null) return;
    const games = this.moduleRef.get(GamesService, { strict: false });
    for (let attempt = 0; ; attempt++) {
      try {
        const { game: stored } = await games.upload(
          { bytes: Buffer.from(game.transcript, 'utf8'), mediaType: 'text/plain; charset=utf-8', filename: `dots-game-${game.id}.txt` },
          { format: `${DOTS_TRANSCRIPT.publisher}/${DOTS_TRANSCRIPT.version}`, filename: `dots-game-${game.id}.txt` },
          DOTS_SERVER_ACCOUNT,
        );
        await this.repository.markArchived(game.id, Number(stored.id));
        await this.moduleRef.get(AuditTrail, { strict: false }).record({ account: DOTS_SERVER_ACCOUNT, tokenId: null, action: 'game.archive', target: String(stored.id), status: 201, requestId: null });
        return;
      } catch (error) {
        // Only a busy archive (503: the analysis queue is full) is worth another try.
        if (attempt >= RETRY_DELAYS_MS.length || !(error instanceof HttpException && error.getStatus() === 503)) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
      }
    }
  }

  /** UST: the archive's outcomes of the games whose player carries the login's external id. */
  async statistics(login: string): Promise<PlayerStatistics> {
    const counts = await this.repository.outcomes(transcriptExternalId(login));
    const count = (outcome: string) => counts.filter((c) => c.outcome === outcome).reduce((sum, c) => sum + c.count, 0);
    return { played: counts.reduce((sum, c) => sum + c.count, 0), won: count('won'), lost: count('lost'), drawn: count('drawn') };
  }

  /**
   * At start: games a stop interrupted end — waiting ones abandoned, running ones unfinished (their
   * transcript closed with `end unfinished`) — and every ended game not yet in the archive is stored.
   */
  async recover(): Promise<void> {
    if (this.cluster.enabled) return this.archiveEnded(await this.endOrphans());
    for (const row of await this.repository.openGames()) {
      if (row.state === 'running' && row.transcript !== null) await this.repository.updateGame(row.id, 'unfinished', row.logins, endUnfinished(row.transcript));
      else await this.repository.updateGame(row.id, 'abandoned', row.logins, row.transcript);
    }
    for (const row of await this.repository.unarchivedGames()) {
      const state = row.state === 'unfinished' ? 'finished' : row.state;
      await this.archive({ id: row.id, state: state as SavedGame['state'], options: row.options, players: row.logins, transcript: row.transcript }).catch((error: unknown) =>
        this.logger.error(`Dots game ${row.id} could not be archived: ${(error as Error).message}`),
      );
    }
  }

  /**
   * Cluster: claims the games no live node has (a dead node's, this node's run before) and ends the
   * open ones — waiting ones abandoned, running ones unfinished — each once (only the claimer's
   * write lands); answers the ended games to archive, and those ended before but not archived yet.
   */
  async endOrphans(): Promise<DotsGameRow[]> {
    const node = this.cluster.node;
    const ended: DotsGameRow[] = [];
    for (const row of await this.repository.claimOrphanGames(node)) {
      if (row.state === 'finished' || row.state === 'unfinished') {
        ended.push(row);
      } else if (row.state === 'running' && row.transcript !== null) {
        const transcript = endUnfinished(row.transcript);
        if (await this.repository.endGame(row.id, node, 'unfinished', row.logins, transcript)) ended.push({ ...row, state: 'unfinished', transcript });
      } else {
        await this.repository.endGame(row.id, node, 'abandoned', row.logins, row.transcript);
      }
    }
    if (ended.length > 0) this.logger.log(`ended or archiving ${ended.length} Dots game(s) of nodes no longer running: ${ended.map((row) => row.id).join(', ')}`);
    return ended;
  }

  /** Stores ended games in the archive, one after the other; a failure is logged (the game stays unarchived). */
  async archiveEnded(rows: readonly DotsGameRow[]): Promise<void> {
    for (const row of rows) {
      const state = row.state === 'unfinished' ? 'finished' : row.state;
      await this.archive({ id: row.id, state: state as SavedGame['state'], options: row.options, players: row.logins, transcript: row.transcript }).catch((error: unknown) =>
        this.logger.error(`Dots game ${row.id} could not be archived: ${(error as Error).message}`),
      );
    }
  }
}
