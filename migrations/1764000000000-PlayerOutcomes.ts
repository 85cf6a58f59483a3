import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each player's outcome of a game (won, lost, drawn, unfinished), from which player statistics are
 * counted, and a B-tree on the folded name so one player's games and counts, and short name queries
 * that trigrams cannot serve, are read from an index. Games stored before have no outcome (null)
 * until they are re-indexed (POST /reindex). Adding a nullable column without a default rewrites
 * nothing; the index build reads game_players once (seconds per million players on a server).
 */
export class PlayerOutcomes1764000000000 implements MigrationInterface {
  name = 'PlayerOutcomes1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_players ADD COLUMN outcome text CHECK (outcome IN ('won', 'lost', 'drawn', 'unfinished'))`);
    await db.query(`CREATE INDEX game_players_name_key_game ON game_players (name_key, game_id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX game_players_name_key_game`);
    await db.query(`ALTER TABLE game_players DROP COLUMN outcome`);
  }
}
