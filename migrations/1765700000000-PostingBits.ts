import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Runs of postings written from now on bucket the keys by their top 24 bits, not 20
 * (src/positions/postings.ts, POSTING_BITS): at a million games a 20-bit bucket named ~200 games
 * whose later positions a search had to read to confirm a rare position, a 24-bit one about a
 * dozen. Each run and each of its rows says its width (`bits`); runs written before keep 20 and
 * are read as such, and merges only join runs of one width.
 *
 * Catalog changes only: a column added with a constant default is not written into existing rows
 * (they read it from the catalog), and the default is dropped at once so that every new row names
 * its width. The shift's check on `position_runs` (a few dozen rows) is re-made to allow 24.
 */
export class PostingBits1765700000000 implements MigrationInterface {
  name = 'PostingBits1765700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE position_runs ADD COLUMN bits smallint NOT NULL DEFAULT 20 CHECK (bits IN (20, 24))`);
    await db.query(`ALTER TABLE position_runs ALTER COLUMN bits DROP DEFAULT`);
    await db.query(`ALTER TABLE position_runs DROP CONSTRAINT position_runs_shift_check, ADD CONSTRAINT position_runs_shift_check CHECK (shift BETWEEN 0 AND bits)`);
    await db.query(`ALTER TABLE position_postings ADD COLUMN bits smallint NOT NULL DEFAULT 20`);
    await db.query(`ALTER TABLE position_postings ALTER COLUMN bits DROP DEFAULT`);
  }

  async down(db: QueryRunner): Promise<void> {
    // Runs of 24-bit buckets cannot be read as 20-bit ones: they go, and the games they named are
    // found again once re-indexed (POST /reindex).
    await db.query(`DELETE FROM position_postings WHERE bits <> 20`);
    await db.query(`DELETE FROM position_runs WHERE bits <> 20`);
    await db.query(`ALTER TABLE position_postings DROP COLUMN bits`);
    await db.query(`ALTER TABLE position_runs DROP CONSTRAINT position_runs_shift_check, ADD CONSTRAINT position_runs_shift_check CHECK (shift BETWEEN 0 AND 20)`);
    await db.query(`ALTER TABLE position_runs DROP COLUMN bits`);
  }
}
