import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The games whose postings are dead (src/indexes/positions): a game read again or deleted leaves its
 * postings in the runs written before (a run is written once and only merged), so its row here says
 * that its postings in runs numbered below `before_run` are no longer its positions. The merges drop
 * them as they move a run's postings, and forget the row once no run below `before_run` is left.
 * Searches need nothing of it: every candidate is confirmed by the game's own positions. A small
 * table (one row a game read again since the runs it was in were merged); nothing is rewritten.
 */
export class PositionRemovals1766200000000 implements MigrationInterface {
  name = 'PositionRemovals1766200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE position_removals (game_id bigint PRIMARY KEY, before_run bigint NOT NULL)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE position_removals`);
  }
}
