import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Name-part search looks through the distinct player names instead of every seat of every game:
 * `player_names` holds each folded name once, with the trigram index, and the games of the names a
 * part matches are found by the B-tree on `game_players (name_key, game_id)`. At a million games the
 * trigram index over two million seats made a common part cost a second; over the distinct names
 * (tens of thousands) it is a few milliseconds. A name whose last game is deleted stays in the list
 * (it matches no game, and its key is all it holds). One pass over `game_players`; the index build
 * reads only the distinct names.
 */
export class PlayerNames1764300000000 implements MigrationInterface {
  name = 'PlayerNames1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE player_names (name_key text PRIMARY KEY)`);
    await db.query(`INSERT INTO player_names (name_key) SELECT DISTINCT name_key FROM game_players WHERE name_key IS NOT NULL`);
    await db.query(`CREATE INDEX player_names_name_key_trgm ON player_names USING gin (name_key gin_trgm_ops) WITH (fastupdate = off)`);
    await db.query(`DROP INDEX game_players_name_key_trgm`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX game_players_name_key_trgm ON game_players USING gin (name_key gin_trgm_ops) WITH (fastupdate = off)`);
    await db.query(`DROP TABLE player_names`);
  }
}
