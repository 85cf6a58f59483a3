import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ranks index (src/indexes/ranks, docs/ranks.md): each player's rank and rating, read once when
 * a game is indexed from the rating its file writes. `ranks` holds each seat's Go rank on one scale
 * (-29 for 30k … 0 for 1k, 1 for 1d … 9 for 9d, 10 for 1p … 18 for 9p) and `ratings` each seat's
 * numeric rating, by seat: the seat `s` (0-based, as game_players counts) is element `s + 1`, null
 * where the seat has none. `low_*` and `high_*` are the lowest and highest of the game's seats, set
 * only when every seat (two or more) has one: the rank and rating filters take a game whose players
 * all lie in the range, and walk these indexes.
 *
 * A game gets a row only when some seat has a rank or a rating. A new table only: games stored
 * before it get their rows from `POST /reindex?indexes=ranks`.
 */
export class GameRanks1766350000000 implements MigrationInterface {
  name = 'GameRanks1766350000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE game_ranks (
        game_id     bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        ranks       smallint[] NOT NULL,
        ratings     real[] NOT NULL,
        low_rank    smallint,
        high_rank   smallint,
        low_rating  real,
        high_rating real,
        CHECK (low_rank <= high_rank),
        CHECK (low_rating <= high_rating)
      )`);
    await db.query(`CREATE INDEX game_ranks_rank ON game_ranks (low_rank, high_rank) WHERE low_rank IS NOT NULL`);
    await db.query(`CREATE INDEX game_ranks_rating ON game_ranks (low_rating, high_rating) WHERE low_rating IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE game_ranks`);
  }
}
