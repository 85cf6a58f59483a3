import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What players search games by, in one form for every format: board size, the day played, the event
 * and the rules (folded keys for exact, case-insensitive matching), with B-trees for the filters and
 * the sort by date played. Nullable columns without defaults rewrite nothing; games stored before
 * have no facts until they are re-indexed (POST /reindex).
 */
export class GameFacts1764100000000 implements MigrationInterface {
  name = 'GameFacts1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE game_analyses
        ADD COLUMN board_width integer,
        ADD COLUMN board_height integer,
        ADD COLUMN date_played date,
        ADD COLUMN event text,
        ADD COLUMN event_key text,
        ADD COLUMN rules text`);
    await db.query(`CREATE INDEX game_analyses_board_game ON game_analyses (board_width, board_height, game_id DESC)`);
    await db.query(`CREATE INDEX game_analyses_date_played_game ON game_analyses (date_played, game_id)`);
    await db.query(`CREATE INDEX game_analyses_event_key_game ON game_analyses (event_key, game_id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX game_analyses_event_key_game`);
    await db.query(`DROP INDEX game_analyses_date_played_game`);
    await db.query(`DROP INDEX game_analyses_board_game`);
    await db.query(`ALTER TABLE game_analyses DROP COLUMN board_width, DROP COLUMN board_height, DROP COLUMN date_played, DROP COLUMN event, DROP COLUMN event_key, DROP COLUMN rules`);
  }
}
