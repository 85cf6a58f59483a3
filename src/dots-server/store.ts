import type { GameOptions } from './protocol.js';

/** A player's record as UST answers it (201). */
export interface PlayerStatistics {
  readonly played: number;
  readonly won: number;
  readonly lost: number;
  readonly drawn: number;
}

/** A server game as kept after every change, so that a restart can end it as unfinished. */
export interface SavedGame {
  readonly id: number;
  readonly state: 'waiting' | 'running' | 'finished' | 'abandoned';
  readonly options: GameOptions;
  readonly players: readonly string[];
  /** The transcript so far (running) or whole (finished); null while waiting. */
  readonly transcript: string | null;
}

/**
 * What the lobby keeps outside memory: accounts, games and the archive. The server's repository
 * implements it over PostgreSQL and the archive's upload path; tests use an in-memory one.
 */
export interface DotsStore {
  /** False when the login is taken. */
  register(login: string, password: string): Promise<boolean>;
  /** Whether the login exists and the password is its password. */
  verify(login: string, password: string): Promise<boolean>;
  /** A new game's id. */
  createGame(options: GameOptions, creator: string): Promise<number>;
  /**
   * Writes the games' rows in one commit, durable when it resolves (the lobby answers a move only
   * then); all or none of them. Answers the ids written: in a cluster, a game another node has
   * ended (taking this node for dead) is not written over.
   */
  saveGames(games: readonly SavedGame[]): Promise<readonly number[]>;
  /** Stores a finished game's transcript in the archive. */
  archive(game: SavedGame): Promise<void>;
  statistics(login: string): Promise<PlayerStatistics>;
}
