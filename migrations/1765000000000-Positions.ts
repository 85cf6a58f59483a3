import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The position index (docs/positions.md): one row per game whose positions are indexed, holding
 * every position of its main line packed (`src/formats/families/positions.ts`: the canonical key,
 * the transform, the move played next; `head` the first 6 entries, kept in the row, `tail` the
 * rest, kept out of line), and two arrays under GIN indexes that find the games holding a key:
 * `openings`, the keys of the first 6 positions themselves, where the positions thousands of games
 * share are (a posting list per key, a game found without a false one), and `buckets`, the distinct
 * top 20 bits of the keys of the later positions, nearly all of them reached by one game (a bucket
 * lists a few dozen games at 100,000 games; each is confirmed by finding the key in its tail).
 * `position_counts` keeps, per opening key, how many games hold it, kept by triggers on each
 * statement's rows: the number of games reaching the start or a common opening is read, not counted.
 *
 * `result` (the winner's colour, `draw`, null when unknown) and `played` (the day played) are the
 * game's, copied here so that the explorer counts a position's games without reading other tables.
 *
 * A new table only: games stored before it get their rows from `POST /reindex`.
 */
export class Positions1765000000000 implements MigrationInterface {
  name = 'Positions1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE game_positions (
        game_id   bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        plies     integer NOT NULL CHECK (plies >= 0),
        played    date,
        family_id smallint NOT NULL REFERENCES families (id),
        result    text,
        openings  bigint[] NOT NULL,
        buckets   integer[] NOT NULL,
        head      bytea NOT NULL,
        tail      bytea
      ) WITH (toast_tuple_target = 256)`);
    // The keys are random bytes: compressing them gains nothing and costs every read. The opening
    // keys and the head stay in the row, which every search reads; the rest goes out of line.
    await db.query(`ALTER TABLE game_positions ALTER COLUMN buckets SET STORAGE EXTERNAL, ALTER COLUMN openings SET STORAGE MAIN, ALTER COLUMN tail SET STORAGE EXTERNAL, ALTER COLUMN head SET STORAGE MAIN`);
    // The planner needs to know which opening keys are common (read the newest games first) and which rare (use the index).
    await db.query(`ALTER TABLE game_positions ALTER COLUMN openings SET STATISTICS 1000`);
    // A game adds some hundred keys to the index at random places: gathered in a pending list and
    // merged a batch at a time, they cost a fraction of inserting each. The list is kept small
    // (512 kB), since every query reads it until the next merge.
    await db.query(`CREATE INDEX game_positions_openings ON game_positions USING gin (openings) WITH (fastupdate = on, gin_pending_list_limit = 512)`);
    await db.query(`CREATE INDEX game_positions_buckets ON game_positions USING gin (buckets) WITH (fastupdate = on, gin_pending_list_limit = 512)`);
    await db.query(`CREATE TABLE position_counts (key bigint PRIMARY KEY, games integer NOT NULL)`);
    // Keys in order, so two writers lock the rows they share in the same order (no deadlock).
    await db.query(`
      CREATE FUNCTION position_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO position_counts (key, games)
          SELECT k, count(*) FROM new_rows, unnest(new_rows.openings) AS k GROUP BY k ORDER BY k
          ON CONFLICT (key) DO UPDATE SET games = position_counts.games + excluded.games;
        ELSE
          INSERT INTO position_counts (key, games)
          SELECT k, -count(*) FROM old_rows, unnest(old_rows.openings) AS k GROUP BY k ORDER BY k
          ON CONFLICT (key) DO UPDATE SET games = position_counts.games + excluded.games;
          DELETE FROM position_counts WHERE games <= 0 AND key IN (SELECT unnest(openings) FROM old_rows);
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`CREATE TRIGGER position_counts_added AFTER INSERT ON game_positions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION position_counts_change()`);
    await db.query(`CREATE TRIGGER position_counts_removed AFTER DELETE ON game_positions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION position_counts_change()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE game_positions`);
    await db.query(`DROP TABLE position_counts`);
    await db.query(`DROP FUNCTION position_counts_change()`);
  }
}
