import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The live Dots server: `dots_accounts` holds one row per account with its scrypt password hash
 * (never the password); `dots_games` one row per game created on the server, with its options,
 * the logins by seat, its state and its transcript so far, so that a restart can end the games it
 * interrupted as unfinished and archive them. `archived_game_id` links a finished game to its
 * archive entry (null until stored there).
 */
export class DotsServer1764900000000 implements MigrationInterface {
  name = 'DotsServer1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE dots_accounts (
        login         text PRIMARY KEY CHECK (length(login) BETWEEN 1 AND 32 AND login !~ '\\s'),
        password_hash text NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE dots_games (
        id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        state            text NOT NULL CHECK (state IN ('waiting', 'running', 'finished', 'abandoned', 'unfinished')),
        players          smallint NOT NULL CHECK (players BETWEEN 2 AND 4),
        width            smallint NOT NULL CHECK (width BETWEEN 10 AND 50),
        height           smallint NOT NULL CHECK (height BETWEEN 10 AND 50),
        seconds          smallint NOT NULL CHECK (seconds BETWEEN 15 AND 90),
        extra_move       boolean NOT NULL,
        logins           text[] NOT NULL DEFAULT '{}',
        transcript       text,
        archived_game_id bigint REFERENCES games (id) ON DELETE SET NULL,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      )`);
    // What a start looks for: games it interrupted, and ended games not yet in the archive.
    await db.query(`CREATE INDEX dots_games_open ON dots_games (id) WHERE state IN ('waiting', 'running')`);
    await db.query(`CREATE INDEX dots_games_unarchived ON dots_games (id) WHERE state IN ('finished', 'unfinished') AND archived_game_id IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE dots_games`);
    await db.query(`DROP TABLE dots_accounts`);
  }
}
