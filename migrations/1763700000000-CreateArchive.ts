import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The archive: one row per game in the GoFans table design (ID, Publisher, Version, Header, Body)
 * with the verbatim upload beside it, and index tables for what format plugins extract.
 * Nothing here names a format, so a new format or version never changes the schema.
 */
export class CreateArchive1763700000000 implements MigrationInterface {
  name = 'CreateArchive1763700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await db.query(`
      CREATE TABLE games (
        id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        publisher     text,
        version       text,
        header        text,
        body          text,
        family        text CHECK (family IN ('go', 'dots', 'checkers', 'peg-solitaire')),
        status        text NOT NULL CHECK (status IN ('indexed', 'stored')),
        status_reason text,
        raw           bytea NOT NULL,
        sha256        char(64) NOT NULL,
        size          integer NOT NULL CHECK (size > 0),
        media_type    text NOT NULL,
        filename      text,
        uploaded_at   timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT games_sha256_unique UNIQUE (sha256)
      )`);
    await db.query(`CREATE INDEX games_publisher_version_id ON games (publisher, version, id DESC)`);
    await db.query(`CREATE INDEX games_family_id ON games (family, id DESC)`);
    await db.query(`CREATE INDEX games_uploaded_at ON games (uploaded_at DESC, id DESC)`);

    await db.query(`
      CREATE TABLE game_analyses (
        game_id    bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        move_count integer NOT NULL,
        result     text,
        legal      boolean NOT NULL,
        consistent boolean NOT NULL,
        problems   jsonb NOT NULL DEFAULT '[]',
        details    jsonb NOT NULL DEFAULT '{}'
      )`);
    await db.query(`CREATE INDEX game_analyses_consistent_game ON game_analyses (consistent, game_id DESC)`);

    await db.query(`
      CREATE TABLE game_players (
        game_id         bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat            integer NOT NULL,
        name            text,
        external_id     text,
        color           text,
        declared_points double precision,
        points          double precision,
        captures        integer,
        PRIMARY KEY (game_id, seat)
      )`);
    await db.query(`CREATE INDEX game_players_name_trgm ON game_players USING gin (lower(name) gin_trgm_ops)`);

    await db.query(`
      CREATE TABLE game_replays (
        game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        plies   jsonb NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE game_replays`);
    await db.query(`DROP TABLE game_players`);
    await db.query(`DROP TABLE game_analyses`);
    await db.query(`DROP TABLE games`);
  }
}
