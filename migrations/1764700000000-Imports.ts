import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bulk imports (POST /imports): `imports` holds one row per import with its progress counters and
 * where its spooled request body lies; `import_entries` one row per finished file of it, written in
 * the same transaction as the file's games, so an import resumed after a restart starts after the
 * last finished entry and stores nothing twice. Refused entries keep their problem+json.
 */
export class Imports1764700000000 implements MigrationInterface {
  name = 'Imports1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE imports (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        state text NOT NULL CHECK (state IN ('running', 'done', 'failed')),
        kind text NOT NULL CHECK (kind IN ('zip', 'tar', 'tar.gz', 'multipart', 'file')),
        filename text,
        files_total integer NOT NULL CHECK (files_total >= 0),
        files_done integer NOT NULL DEFAULT 0 CHECK (files_done >= 0),
        games_stored integer NOT NULL DEFAULT 0,
        duplicates integer NOT NULL DEFAULT 0,
        refused integer NOT NULL DEFAULT 0,
        spool_path text NOT NULL,
        problem jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX imports_running ON imports (id) WHERE state = 'running'`);
    await db.query(`
      CREATE TABLE import_entries (
        import_id bigint NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
        position integer NOT NULL CHECK (position >= 0),
        path text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('stored', 'indexed', 'duplicate', 'refused')),
        upload_id bigint REFERENCES uploads (id) ON DELETE SET NULL,
        game_ids bigint[] NOT NULL DEFAULT '{}',
        problem jsonb,
        PRIMARY KEY (import_id, position)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE import_entries`);
    await db.query(`DROP TABLE imports`);
  }
}
