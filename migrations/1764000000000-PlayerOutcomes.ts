import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each player's outcome of a game (won, lost, drawn, unfinished), from which player statistics are
 * counted, and B-trees for what search and the players routes look up exactly: the folded name (one
 * player's games and counts, and short name parts that trigrams cannot serve), the external id, the
 * file name and the move count. Games stored before have no outcome (null) until they are re-indexed
 * (POST /reindex). Adding a nullable column without a default rewrites nothing; each index build reads
 * its table once (seconds per million rows on a server).
 */
export class PlayerOutcomes1764000000000 implements MigrationInterface {
  name = 'PlayerOutcomes1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_players ADD COLUMN outcome text CHECK (outcome IN ('won', 'lost', 'drawn', 'unfinished'))`);
    await db.query(`CREATE INDEX game_players_name_key_game ON game_players (name_key, game_id DESC)`);
    await db.query(`CREATE INDEX game_players_external_id_game ON game_players (external_id, game_id DESC)`);
    await db.query(`CREATE INDEX games_filename ON games (filename)`);
    await db.query(`CREATE INDEX game_analyses_move_count_game ON game_analyses (move_count, game_id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX game_analyses_move_count_game`);
    await db.query(`DROP INDEX games_filename`);
    await db.query(`DROP INDEX game_players_external_id_game`);
    await db.query(`DROP INDEX game_players_name_key_game`);
    await db.query(`ALTER TABLE game_players DROP COLUMN outcome`);
  }
}
