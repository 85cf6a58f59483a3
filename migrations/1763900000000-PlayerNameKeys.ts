import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Player search compares a name key folded by the application (src/games/player-name-key.ts) instead
 * of the database's `lower(name)`, which leaves non-ASCII letters unfolded on a database with the
 * `C` ctype. Existing rows are backfilled with the database's own folding, the best it can do here;
 * new uploads get the application's.
 */
export class PlayerNameKeys1763900000000 implements MigrationInterface {
  name = 'PlayerNameKeys1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_players ADD COLUMN name_key text`);
    await db.query(`UPDATE game_players SET name_key = lower(normalize(name, NFKC)) WHERE name IS NOT NULL`);
    await db.query(`CREATE INDEX game_players_name_key_trgm ON game_players USING gin (name_key gin_trgm_ops) WITH (fastupdate = off)`);
    await db.query(`DROP INDEX game_players_name_trgm`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX game_players_name_trgm ON game_players USING gin (lower(name) gin_trgm_ops) WITH (fastupdate = off)`);
    await db.query(`DROP INDEX game_players_name_key_trgm`);
    await db.query(`ALTER TABLE game_players DROP COLUMN name_key`);
  }
}
