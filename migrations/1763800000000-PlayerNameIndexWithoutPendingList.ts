import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Player-name search reads the trigram index, and a GIN index with fast update also scans its whole
 * unsorted pending list on every query until a vacuum merges it: measured at 100,000 games, that
 * doubled the search time. Uploads add a few dozen trigram entries each, cheap to merge at once.
 */
export class PlayerNameIndexWithoutPendingList1763800000000 implements MigrationInterface {
  name = 'PlayerNameIndexWithoutPendingList1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER INDEX game_players_name_trgm SET (fastupdate = off)`);
    await db.query(`SELECT gin_clean_pending_list('game_players_name_trgm'::regclass)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER INDEX game_players_name_trgm RESET (fastupdate)`);
  }
}
