import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The result as players search it: how it came about (`ending`: score, resignation, time, forfeit,
 * draw, unknown), the winner's margin, the rules named, and each player's rating as written; and an
 * index of the winning seats by name, for winner search. Empty
 * columns for games indexed before (re-index them to fill them); the indexes are built on the new,
 * empty values, so the migration reads the tables once per index.
 */
export class ResultFacts1764600000000 implements MigrationInterface {
  name = 'ResultFacts1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE game_analyses
        ADD COLUMN ending text CHECK (ending IN ('score', 'resignation', 'time', 'forfeit', 'draw', 'unknown')),
        ADD COLUMN margin double precision`);
    await db.query(`ALTER TABLE game_players ADD COLUMN rating text`);
    await db.query(`CREATE INDEX game_analyses_ending_game ON game_analyses (ending, game_id DESC) WHERE ending IS NOT NULL`);
    await db.query(`CREATE INDEX game_analyses_margin_game ON game_analyses (margin, game_id DESC) WHERE margin IS NOT NULL`);
    await db.query(`CREATE INDEX game_analyses_rules_game ON game_analyses (lower(rules), game_id DESC) WHERE rules IS NOT NULL`);
    await db.query(`CREATE INDEX game_players_rating_game ON game_players (lower(rating), game_id DESC) WHERE rating IS NOT NULL`);
    // Winner search: the winning seats of the names a part matches, newest first, from the index alone.
    await db.query(`CREATE INDEX game_players_won_name_game ON game_players (name_key, game_id DESC) WHERE outcome = 'won'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX game_players_won_name_game`);
    await db.query(`DROP INDEX game_players_rating_game`);
    await db.query(`DROP INDEX game_analyses_rules_game`);
    await db.query(`ALTER TABLE game_players DROP COLUMN rating`);
    await db.query(`ALTER TABLE game_analyses DROP COLUMN ending, DROP COLUMN margin`);
  }
}
