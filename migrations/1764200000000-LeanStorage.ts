import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keeps what cannot be derived and derives the rest:
 * - the verbatim bytes move out of the games row into `game_files`, so searches read narrow rows;
 * - Header and Body become byte ranges of those bytes (`header_start`/`header_end`,
 *   `body_start`/`body_end`, cut out on request); the texts stay in `header`/`body` only when they
 *   are not a verbatim slice of the file (UTF-16 uploads, which plugins read re-encoded);
 * - the SHA-256 is kept as its 32 bytes instead of 64 hex characters;
 * - the stored replays (9–51× the file) are dropped: a replay is made from the bytes on request;
 * - verdict problems and details are kept as JSON text, not jsonb (a third to half the size).
 *
 * The spans are found the way the archive finds them for new uploads (see text-spans.ts): the
 * header's first occurrence in the file, then the body's first occurrence after it.
 *
 * Cost: two passes over `games` (the UPDATE setting the spans, then the rewrite changing the
 * SHA-256's type, which also gives back the space of the dropped columns), one copy of the bytes
 * and one rewrite of `game_analyses`. `npm run bench migration` times it per million games.
 */
export class LeanStorage1764200000000 implements MigrationInterface {
  name = 'LeanStorage1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE game_files (
        game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        raw     bytea NOT NULL
      )`);
    await db.query(`INSERT INTO game_files (game_id, raw) SELECT id, raw FROM games`);
    await db.query(`
      ALTER TABLE games
        ADD COLUMN header_start integer, ADD COLUMN header_end integer,
        ADD COLUMN body_start integer, ADD COLUMN body_end integer`);
    await db.query(`
      WITH located AS (
        SELECT id, h.bytes AS header_bytes, position(h.bytes IN raw) AS header_at, b.bytes AS body_bytes, raw
        FROM games
        CROSS JOIN LATERAL (SELECT convert_to(header, 'UTF8') AS bytes) h
        CROSS JOIN LATERAL (SELECT convert_to(body, 'UTF8') AS bytes) b
        WHERE header IS NOT NULL OR body IS NOT NULL
      ), spans AS (
        SELECT id, header_bytes, body_bytes,
               CASE WHEN header_at > 0 THEN header_at - 1 END AS header_start,
               CASE WHEN header_at > 0 THEN header_at - 1 + octet_length(header_bytes) END AS header_end,
               CASE
                 WHEN body_bytes IS NULL THEN NULL
                 WHEN header_at > 0 AND position(body_bytes IN substring(raw FROM header_at + octet_length(header_bytes))) > 0
                   THEN header_at - 2 + octet_length(header_bytes) + position(body_bytes IN substring(raw FROM header_at + octet_length(header_bytes)))
                 WHEN position(body_bytes IN raw) > 0 THEN position(body_bytes IN raw) - 1
               END AS body_start
        FROM located
      )
      UPDATE games g SET
        header_start = s.header_start, header_end = s.header_end,
        header = CASE WHEN s.header_start IS NULL THEN g.header END,
        body_start = s.body_start, body_end = s.body_start + octet_length(s.body_bytes),
        body = CASE WHEN s.body_start IS NULL THEN g.body END
      FROM spans s WHERE g.id = s.id`);
    // Dropping a column only hides it; the type change rewrites every row, which gives the space back.
    await db.query(`ALTER TABLE games DROP COLUMN raw, ALTER COLUMN sha256 TYPE bytea USING decode(sha256, 'hex')`);
    await db.query(`ALTER TABLE games ADD CONSTRAINT games_sha256_length CHECK (octet_length(sha256) = 32)`);
    await db.query(`DROP TABLE game_replays`);
    // jsonb takes two to three times the JSON text for arrays of numbers (final positions): keep the text.
    await db.query(`ALTER TABLE game_analyses ALTER COLUMN problems TYPE json, ALTER COLUMN details TYPE json, ALTER COLUMN problems SET DEFAULT '[]', ALTER COLUMN details SET DEFAULT '{}'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_analyses ALTER COLUMN problems TYPE jsonb, ALTER COLUMN details TYPE jsonb`);
    await db.query(`CREATE TABLE game_replays (game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE, plies jsonb NOT NULL)`);
    await db.query(`ALTER TABLE games DROP CONSTRAINT games_sha256_length`);
    await db.query(`ALTER TABLE games ADD COLUMN raw bytea, ALTER COLUMN sha256 TYPE char(64) USING encode(sha256, 'hex')`);
    await db.query(`
      UPDATE games g SET raw = f.raw,
        header = coalesce(g.header, convert_from(substring(f.raw FROM g.header_start + 1 FOR g.header_end - g.header_start), 'UTF8')),
        body = coalesce(g.body, convert_from(substring(f.raw FROM g.body_start + 1 FOR g.body_end - g.body_start), 'UTF8'))
      FROM game_files f WHERE f.game_id = g.id`);
    await db.query(`ALTER TABLE games ALTER COLUMN raw SET NOT NULL, DROP COLUMN header_start, DROP COLUMN header_end, DROP COLUMN body_start, DROP COLUMN body_end`);
    await db.query(`DROP TABLE game_files`);
  }
}
