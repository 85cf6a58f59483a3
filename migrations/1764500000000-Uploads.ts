import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Files holding several games (SGF collections, PDN databases) are kept once, as uploaded, in
 * `uploads`; each of their games is a game of its own whose bytes are its byte range of the file
 * (`games.upload_id`, `upload_start`, `upload_end`) instead of a copy in `game_files`. The file's
 * bytes are stored uncompressed out of line (STORAGE EXTERNAL), so reading one game's range reads
 * only the chunks it spans. `upload_games` lists every game of a file in file order with what became
 * of it: a new game (`indexed` or `stored`), or a `duplicate` of a game the archive already had.
 * New tables and three empty columns: no rewrite of existing rows.
 */
export class Uploads1764500000000 implements MigrationInterface {
  name = 'Uploads1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE uploads (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        sha256 bytea NOT NULL UNIQUE CHECK (octet_length(sha256) = 32),
        size integer NOT NULL,
        media_type text NOT NULL,
        filename text,
        publisher text,
        version text,
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        raw bytea NOT NULL
      )`);
    await db.query(`ALTER TABLE uploads ALTER COLUMN raw SET STORAGE EXTERNAL`);
    await db.query(`
      CREATE TABLE upload_games (
        upload_id bigint NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
        position integer NOT NULL CHECK (position >= 0),
        start_offset integer NOT NULL CHECK (start_offset >= 0),
        end_offset integer NOT NULL CHECK (end_offset >= start_offset),
        outcome text NOT NULL CHECK (outcome IN ('indexed', 'stored', 'duplicate')),
        game_id bigint REFERENCES games (id) ON DELETE SET NULL,
        PRIMARY KEY (upload_id, position)
      )`);
    await db.query(`CREATE INDEX upload_games_game_id ON upload_games (game_id)`);
    await db.query(`
      ALTER TABLE games
        ADD COLUMN upload_id bigint REFERENCES uploads (id),
        ADD COLUMN upload_start integer,
        ADD COLUMN upload_end integer,
        ADD CONSTRAINT games_upload_range CHECK ((upload_id IS NULL) = (upload_start IS NULL) AND (upload_id IS NULL) = (upload_end IS NULL))`);
    await db.query(`CREATE INDEX games_upload_id ON games (upload_id) WHERE upload_id IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE games DROP COLUMN upload_id, DROP COLUMN upload_start, DROP COLUMN upload_end`);
    await db.query(`DROP TABLE upload_games`);
    await db.query(`DROP TABLE uploads`);
  }
}
