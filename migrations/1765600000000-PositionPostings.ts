import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The later positions' buckets move out of a GIN index into runs of postings
 * (src/positions/postings.ts, docs/positions.md). A GIN index inserts each of a game's ~200
 * bucket entries at its own place in the tree: on the embedded database that was 0.86 ms of every
 * game's import (a 20,000-game import at 672 games/s with it, 1,592 without it, 2,233 without any
 * position index). A run is the sorted postings of one write's games, a few rows of ~1.4 kB; runs
 * of a size are merged into one in the background.
 *
 * - `position_runs`: one row per run, with its shift (the rows' bucket range) and size;
 *   `merging_into` names the run a merge is moving it into (a merge interrupted is resumed).
 * - `position_postings`: a run's rows; a search reads, per shift, the row of its bucket's range:
 *   one row per run. A search never reads `position_runs`: a merge's step moves rows from its
 *   sources to its target in one statement, and the sources' `position_runs` rows go after the
 *   last step.
 *
 * Rows stored before keep their `buckets` array and its GIN index, which searches still read, and
 * move to runs when re-indexed: nothing existing is read or rewritten here, `buckets` only stops
 * being required (a catalog change). New rows leave it null.
 *
 * New rows also keep more of their entries in the row: the table's toast_tuple_target goes from 256
 * to 512 bytes (a catalog change too; rows stored before are as they were).
 */
export class PositionPostings1765600000000 implements MigrationInterface {
  name = 'PositionPostings1765600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_positions ALTER COLUMN buckets DROP NOT NULL`);
    // New rows keep their first ~26 entries in the row (src/positions/position-rows.ts, HEAD_BYTES):
    // room for them before the row's tail is sent out of line. Rows written before keep theirs.
    await db.query(`ALTER TABLE game_positions SET (toast_tuple_target = 512)`);
    await db.query(`
      CREATE TABLE position_runs (
        run          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        shift        smallint NOT NULL CHECK (shift BETWEEN 0 AND 20),
        postings     bigint NOT NULL CHECK (postings >= 0),
        merging_into bigint REFERENCES position_runs (run)
      )`);
    await db.query(`
      CREATE TABLE position_postings (
        run   bigint NOT NULL,
        part  integer NOT NULL CHECK (part >= 0),
        shift smallint NOT NULL,
        base  bigint NOT NULL,
        games bytea NOT NULL,
        PRIMARY KEY (run, part)
      )`);
    // A search's lookup: the row of each run whose range holds the bucket.
    await db.query(`CREATE INDEX position_postings_range ON position_postings (shift, part)`);
    // Random bytes: compressing them gains nothing and costs every write and read.
    await db.query(`ALTER TABLE position_postings ALTER COLUMN games SET STORAGE EXTERNAL, ALTER COLUMN games SET STATISTICS 0`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_positions SET (toast_tuple_target = 256)`);
    await db.query(`DROP TABLE position_postings`);
    await db.query(`DROP TABLE position_runs`);
  }
}
