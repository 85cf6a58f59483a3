import type { DataSource } from 'typeorm';
import type { Query } from '../database/sql.js';
import type { ReadResult } from '../formats/format-reader.js';
import type { ReplayPart } from '../formats/plugin.js';

/** A game the writer has just stored (or is storing again): its id and the reading its rows come from. */
export interface IndexedGame {
  readonly id: number;
  readonly reading: ReadResult;
}

/** What an index is given when it is opened: the archive's database, nothing of any other index. */
export interface IndexContext {
  readonly dataSource: DataSource;
  /** Whether it is the embedded database (one process) rather than a server several nodes share. */
  readonly embedded: boolean;
}

/**
 * One index: everything the archive derives from a game beyond its bytes and its reading — facts,
 * players, positions, identities, patterns — is one of these, listed in `registry.ts`. The games'
 * writer (src/games/games-write.repository.ts) knows none of their tables: it asks each index on
 * for its part of a batch's one statement, calls it after the statement, and asks it to remove a
 * game's rows; the index keeps its own layout, as a PostgreSQL index access method keeps its pages
 * from the table it indexes.
 *
 * The writer's batch statement has a CTE `made` with one row per game stored: `id` (the game's),
 * `i` (its place in the batch, from 1), `family` (its family's name or null) and the JSON fields
 * every index declared in {@link fields}. Each index may add a binary parameter per game
 * ({@link bytesOf}): the `i`-th element of the bytea array the writer passes to {@link rows}.
 */
export interface GameIndex {
  /** As INDEXES and `POST /reindex?indexes=` name it. */
  readonly name: string;
  /**
   * The JSON fields it reads from `made`, as a record definition (`move_count int, players json`);
   * no two indexes on may name the same field (the writer refuses to start).
   */
  readonly fields?: string;
  /** The values of {@link fields} for one game (absent or null where the game has none). */
  fieldsOf?(reading: ReadResult): object;
  /** A game's bytes for {@link rows} (sent as a binary parameter: no hex in JSON), or null. */
  bytesOf?(reading: ReadResult): Buffer | null;
  /**
   * The CTEs (`name AS (INSERT …)`, comma-separated, named apart from other indexes') writing its
   * rows for the games of CTE `made`; `bytes` is the SQL of the bytea array of {@link bytesOf}.
   */
  rows?(made: string, bytes: string): string;
  /**
   * What the batch statement cannot write (the position postings' run), gathered over a write's
   * batches: the writer opens a run, adds each batch's stored games to it as soon as their ids are
   * known (while its next statement runs on the server), and has it written in the write's
   * transaction once a run's worth is stored (e.g. a collection's games together).
   */
  openRun?(): IndexRun;
  /**
   * The CTEs removing the rows of the games whose ids are the bigint array `ids` (SQL), before a
   * game is read again or deleted; what it cannot remove now it marks for its upkeep to reclaim.
   */
  remove?(ids: string): string;
  /** Background work after writes (the postings' merges): started at boot, told after each committed write, stopped at shutdown. */
  readonly upkeep?: IndexUpkeep;
}

/** What an index writes after a write's batch statements (see {@link GameIndex.openRun}). */
export interface IndexRun {
  /** Games just stored, in the order stored: work of this thread only, no SQL. */
  add(games: readonly IndexedGame[]): void;
  /** Writes what was added, on the write's transaction. */
  write(query: Query): Promise<void>;
}

export interface IndexUpkeep {
  start(): void;
  /** A write that touched the index committed: do what is due, now or after the work under way. */
  kick(): void;
  /** Resolves once no work is under way or due (benches and tests). */
  idle(): Promise<void>;
  /** The step under way ends, no other starts. */
  stop(): Promise<void>;
}

/**
 * An index as the registry lists it: its name, what it holds, what it takes of the replay, its tables
 * and triggers, and how it is opened. `npm run sql` writes its part of the writer's statements to
 * `src/queries/index.<name>.sql`.
 */
export interface IndexDefinition {
  readonly name: string;
  /** One line: what it holds and which routes read it. */
  readonly summary: string;
  /** The parts of the replay it needs beyond the analysis (none: the analysis alone); the analysis threads make only those some index on takes. */
  readonly takes: readonly ReplayPart[];
  /** The tables it owns (rows of a game, or kept from them), as its migrations made them. */
  readonly tables: readonly string[];
  /** Triggers on its tables that keep its own summaries (counts) in step, by name. */
  readonly triggers?: readonly string[];
  open(context: IndexContext): GameIndex;
}
