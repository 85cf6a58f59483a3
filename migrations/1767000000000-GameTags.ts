import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tags: the owner's words about a game (src/tags), kept apart from what is read out of the file, so
 * that reading a game again leaves them; deleting the game drops them. One row a tag of a game, in
 * Unicode NFC as written. `game_tags_tag_game` finds a tag's games; `tag_counts` holds each tag's
 * number of games, kept by statement triggers (one write per tag a statement touches), for GET /tags.
 */
export class GameTags1767000000000 implements MigrationInterface {
  name = 'GameTags1767000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE game_tags (game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE, tag text NOT NULL, PRIMARY KEY (game_id, tag))`);
    await db.query(`CREATE INDEX game_tags_tag_game ON game_tags (tag, game_id)`);
    await db.query(`CREATE TABLE tag_counts (tag text PRIMARY KEY, games integer NOT NULL)`);
    await db.query(`CREATE INDEX tag_counts_games ON tag_counts (games DESC, tag COLLATE "C")`);
    // Tags in order, so two writers lock the rows they share in the same order (no deadlock).
    await db.query(`
      CREATE FUNCTION tag_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO tag_counts (tag, games)
          SELECT tag, count(*) FROM new_rows GROUP BY tag ORDER BY tag
          ON CONFLICT (tag) DO UPDATE SET games = tag_counts.games + excluded.games;
        ELSE
          INSERT INTO tag_counts (tag, games)
          SELECT tag, -count(*) FROM old_rows GROUP BY tag ORDER BY tag
          ON CONFLICT (tag) DO UPDATE SET games = tag_counts.games + excluded.games;
          DELETE FROM tag_counts WHERE games <= 0 AND tag IN (SELECT tag FROM old_rows);
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`CREATE TRIGGER tag_counts_added AFTER INSERT ON game_tags REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_change()`);
    await db.query(`CREATE TRIGGER tag_counts_removed AFTER DELETE ON game_tags REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_change()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE game_tags`);
    await db.query(`DROP TABLE tag_counts`);
    await db.query(`DROP FUNCTION tag_counts_change()`);
  }
}
