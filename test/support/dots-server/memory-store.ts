import type { GameOptions } from '../../../src/dots-server/protocol.js';
import type { DotsStore, PlayerStatistics, SavedGame } from '../../../src/dots-server/store.js';

/** The lobby's store in memory: plain passwords are fine here, nothing leaves the test. */
export class MemoryStore implements DotsStore {
  readonly accounts = new Map<string, string>();
  readonly games = new Map<number, SavedGame>();
  readonly archived: SavedGame[] = [];
  readonly stats = new Map<string, PlayerStatistics>();
  private lastId = 0;
  /** Set to make every call fail (the 402 path). */
  failing = false;
  /** Set to make saveGames fail (a commit that does not happen). */
  savesFailing = false;
  /** Every saveGames call with the ids it wrote, in order: one entry per commit. */
  readonly commits: number[][] = [];
  /** While set, saveGames waits for it before writing (a slow commit). */
  gate: Promise<void> | null = null;
  /** Games saveGames leaves alone (another node ended them, taking this one for dead). */
  readonly takenOver = new Set<number>();

  async register(login: string, password: string): Promise<boolean> {
    this.check();
    if (this.accounts.has(login)) return false;
    this.accounts.set(login, password);
    return true;
  }

  async verify(login: string, password: string): Promise<boolean> {
    this.check();
    return this.accounts.get(login) === password;
  }

  async createGame(options: GameOptions, creator: string): Promise<number> {
    this.check();
    const id = ++this.lastId;
    this.games.set(id, { id, state: 'waiting', options, players: [creator], transcript: null });
    return id;
  }

  async saveGames(games: readonly SavedGame[]): Promise<readonly number[]> {
    if (this.gate !== null) await this.gate;
    if (this.savesFailing) throw new Error('the commit failed');
    const written = games.filter((game) => !this.takenOver.has(game.id));
    this.commits.push(written.map((game) => game.id));
    for (const game of written) this.games.set(game.id, game);
    return written.map((game) => game.id);
  }

  async archive(game: SavedGame): Promise<void> {
    this.archived.push(game);
  }

  async statistics(login: string): Promise<PlayerStatistics> {
    this.check();
    return this.stats.get(login) ?? { played: 0, won: 0, lost: 0, drawn: 0 };
  }

  private check(): void {
    if (this.failing) throw new Error('the store is down');
  }
}
