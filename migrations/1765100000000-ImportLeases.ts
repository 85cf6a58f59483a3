import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Imports owned through the database, so that several nodes on one PostgreSQL share them (issue 32):
 * `imports.owner` names the node working on a running import and `heartbeat_at` when it last said
 * so; a node claims an import nobody owns, or whose owner's heartbeat is older than the lease, with
 * `FOR UPDATE SKIP LOCKED`. The spooled request body is kept in `import_spool` as the files of the
 * spool folder (listed in `imports.spool_files`, in order, with their sizes) one after the other,
 * cut in chunks: every node can read it, whichever received it. It is deleted when the import
 * finishes. Stored uncompressed (STORAGE EXTERNAL): zips are compressed already, and the body lives
 * only as long as its import runs.
 */
export class ImportLeases1765100000000 implements MigrationInterface {
  name = 'ImportLeases1765100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE imports ADD COLUMN owner text, ADD COLUMN heartbeat_at timestamptz, ADD COLUMN spool_files jsonb`);
    await db.query(`
      CREATE TABLE import_spool (
        import_id bigint NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
        seq integer NOT NULL CHECK (seq >= 0),
        bytes bytea NOT NULL,
        PRIMARY KEY (import_id, seq)
      )`);
    await db.query(`ALTER TABLE import_spool ALTER COLUMN bytes SET STORAGE EXTERNAL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE import_spool`);
    await db.query(`ALTER TABLE imports DROP COLUMN spool_files, DROP COLUMN heartbeat_at, DROP COLUMN owner`);
  }
}
