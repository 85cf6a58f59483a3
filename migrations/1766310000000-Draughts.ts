import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Draughts search by squares and material (docs/patterns.md): per draughts game whose positions are
 * indexed, every position of its main line as four 32-bit masks — white men, white kings, black men,
 * black kings — 16 bytes a ply (`src/formats/families/checkers/board-masks.ts`; kept out of line and
 * uncompressed). `written` is the writing transaction's id: the search keeps the positions in memory
 * and reads the rows written since it last looked (every transaction older than its snapshot's xmin
 * has ended, so none is missed), as the Go pattern filter does.
 *
 * A new table only: games stored before it get their rows from `POST /reindex?indexes=draughts`.
 */
export class Draughts1766310000000 implements MigrationInterface {
  name = 'Draughts1766310000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE game_draughts (
        game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        plies   bytea NOT NULL CHECK (length(plies) % 16 = 0 AND length(plies) > 0),
        written xid8 NOT NULL DEFAULT pg_current_xact_id()
      ) WITH (toast_tuple_target = 512)`);
    await db.query(`ALTER TABLE game_draughts ALTER COLUMN plies SET STORAGE EXTERNAL`);
    await db.query(`CREATE INDEX game_draughts_written ON game_draughts (written)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE game_draughts`);
  }
}
