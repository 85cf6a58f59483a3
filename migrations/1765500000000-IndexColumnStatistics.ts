import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * No planner statistics for the columns that only hold a game's packed index data: the positions'
 * bucket arrays and entries, the identities' sequences, the pattern rows' bitmaps and changes. No
 * query filters, joins or sorts on them, so their statistics are never read; gathering them was the
 * most expensive part of every ANALYZE of these tables. For `buckets` ANALYZE counts the elements of
 * every sampled array (30,000 rows of some 200 buckets each): 3.4 s for each analysis of a 30,000-game
 * table on the embedded database against 0.25 s without (measured on this machine), and the
 * embedded database runs its analyses on the archive's one connection, in the middle of imports.
 *
 * Catalog changes only: no table is read or rewritten. Statistics these columns got before stay as
 * they are (a later ANALYZE neither refreshes nor drops them); no query's plan reads them.
 */
export class IndexColumnStatistics1765500000000 implements MigrationInterface {
  name = 'IndexColumnStatistics1765500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_positions ALTER COLUMN buckets SET STATISTICS 0, ALTER COLUMN head SET STATISTICS 0, ALTER COLUMN tail SET STATISTICS 0`);
    await db.query(`ALTER TABLE game_identities ALTER COLUMN sequence SET STATISTICS 0`);
    await db.query(`ALTER TABLE game_patterns ALTER COLUMN first SET STATISTICS 0, ALTER COLUMN second SET STATISTICS 0, ALTER COLUMN changes SET STATISTICS 0`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_positions ALTER COLUMN buckets SET STATISTICS -1, ALTER COLUMN head SET STATISTICS -1, ALTER COLUMN tail SET STATISTICS -1`);
    await db.query(`ALTER TABLE game_identities ALTER COLUMN sequence SET STATISTICS -1`);
    await db.query(`ALTER TABLE game_patterns ALTER COLUMN first SET STATISTICS -1, ALTER COLUMN second SET STATISTICS -1, ALTER COLUMN changes SET STATISTICS -1`);
  }
}
