import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pattern search (docs/patterns.md): per Go or Dots game whose positions are indexed, its main line
 * as the changes of its points' states ply by ply (`src/rules/patterns.ts`; read whole to confirm a
 * candidate, so kept out of line and uncompressed), and the filter the search chooses candidates by:
 * the points each player ever held, as two bitmaps kept in the row. `written` is the writing
 * transaction's id: the archive's in-memory filter reads the rows written since it last looked
 * (every transaction older than its snapshot's xmin has ended, so none is missed).
 *
 * A new table only: games stored before it get their rows from `POST /reindex`.
 */
export class Patterns1765300000000 implements MigrationInterface {
  name = 'Patterns1765300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE game_patterns (
        game_id   bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        family_id smallint NOT NULL REFERENCES families (id),
        width     smallint NOT NULL CHECK (width > 0),
        height    smallint NOT NULL CHECK (height > 0),
        first     bytea NOT NULL,
        second    bytea NOT NULL,
        changes   bytea NOT NULL,
        written   xid8 NOT NULL DEFAULT pg_current_xact_id()
      ) WITH (toast_tuple_target = 512)`);
    await db.query(`ALTER TABLE game_patterns ALTER COLUMN first SET STORAGE MAIN, ALTER COLUMN second SET STORAGE MAIN, ALTER COLUMN changes SET STORAGE EXTERNAL`);
    await db.query(`CREATE INDEX game_patterns_written ON game_patterns (written)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE game_patterns`);
  }
}
