import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The opening positions move out of a GIN index into a table of their own, `opening_positions`: one
 * row per game and distinct key among its first 6 positions (plies 0–5,
 * src/positions/position-rows.ts OPENING_ENTRIES), at its first arrival, with what the explorer
 * counts: the entry's bytes after the key (`turn`: the transform byte, then the move played next),
 * the result (`unknown` when none) and the day played, and the ply. Its one B-tree index is in the
 * explorer's order, (key, turn, result, game_id), every other column included: the moves from a
 * position a million games reach are counted by one index-only scan in that order, a group at a time
 * (at a million games the GIN index gave the 470,000 games of a ply-1 position one by one, each
 * confirmed in its row's head: 0.9 s for the explorer).
 *
 * Kept by triggers on `game_positions`, so every writer (uploads, imports, re-index, the Dots
 * server) fills it: each insert statement adds its rows' openings; a deleted row's openings are
 * found again from its head by the index, one lookup each.
 *
 * The rows of games stored before are written here from their heads (the first 6 entries are always
 * there): bench/migration.ts measures it per million games. The GIN index of `openings` goes: a
 * search only reads the array in rows it has found already.
 */
export class OpeningPositions1765800000000 implements MigrationInterface {
  name = 'OpeningPositions1765800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE opening_positions (
        key     bigint NOT NULL,
        game_id bigint NOT NULL,
        played  date,
        ply     smallint NOT NULL,
        result  text NOT NULL,
        turn    bytea NOT NULL
      )`);
    await db.query(`INSERT INTO opening_positions (key, game_id, played, ply, result, turn) ${inIndexOrder(openingRows('game_positions s'))}`);
    await db.query(`CREATE INDEX opening_positions_moves ON opening_positions (key, turn, result, game_id) INCLUDE (played, ply)`);
    await db.query(`ALTER TABLE opening_positions ALTER COLUMN turn SET STATISTICS 0`);
    await db.query(OPENING_POSITIONS_ADDED_FUNCTION);
    // A row at a time: each of the row's openings is one lookup of the index (a statement's
    // transition table, of unknown size to the planner, could have it scan the whole table).
    await db.query(`
      CREATE FUNCTION opening_positions_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM opening_positions o
        USING (${openingRows('(SELECT OLD.game_id AS game_id, OLD.played AS played, OLD.plies AS plies, OLD.result AS result, OLD.head AS head, OLD.tail AS tail) s')}) r
        WHERE o.key = r.key AND o.turn = r.turn AND o.result = r.result AND o.game_id = r.game_id;
        RETURN NULL;
      END $$`);
    await db.query(OPENING_POSITIONS_ADDED_TRIGGER);
    await db.query(`CREATE TRIGGER opening_positions_removed AFTER DELETE ON game_positions FOR EACH ROW EXECUTE FUNCTION opening_positions_removed()`);
    await db.query(`DROP INDEX game_positions_openings`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX game_positions_openings ON game_positions USING gin (openings) WITH (fastupdate = on, gin_pending_list_limit = 512)`);
    await db.query(`DROP TRIGGER opening_positions_added ON game_positions`);
    await db.query(`DROP TRIGGER opening_positions_removed ON game_positions`);
    await db.query(`DROP FUNCTION opening_positions_added()`);
    await db.query(`DROP FUNCTION opening_positions_removed()`);
    await db.query(`DROP TABLE opening_positions`);
  }
}

/**
 * The `opening_positions` rows (key, game_id, played, ply, result, turn) of the `game_positions`
 * rows of `from` (a table or a subquery, named `s`): their first 6 entries (plies 0–5,
 * OPENING_ENTRIES), each key at its first ply only. An entry is `stride` bytes, the row's entries'
 * bytes over its plies + 1; its key is the first 8 (the signed bigint the `openings` array holds),
 * `turn` the rest.
 */
function openingRows(from: string): string {
  return `SELECT DISTINCT ON (s.game_id, e.key) e.key, s.game_id, s.played, e.ply, coalesce(s.result, 'unknown') AS result, e.turn
         FROM ${from}
         CROSS JOIN LATERAL (SELECT (octet_length(s.head) + coalesce(octet_length(s.tail), 0)) / (s.plies + 1) AS stride) w
         CROSS JOIN LATERAL generate_series(0, least(s.plies, 5)) AS i(ply)
         CROSS JOIN LATERAL (
           SELECT ('x' || encode(substring(s.head FROM i.ply * w.stride + 1 FOR 8), 'hex'))::bit(64)::bigint AS key,
                  substring(s.head FROM i.ply * w.stride + 9 FOR w.stride - 8) AS turn, i.ply::smallint AS ply
         ) e
         ORDER BY s.game_id, e.key, e.ply`;
}

/** The rows of `rows` in the index's order: each key's rows written together, next to each other. */
function inIndexOrder(rows: string): string {
  return `SELECT * FROM (${rows}) r ORDER BY r.key, r.turn, r.result, r.game_id`;
}

/** The trigger adding an insert statement's openings (until migration 1767500000000, which gives the work to the writer). */
export const OPENING_POSITIONS_ADDED_FUNCTION = `
      CREATE FUNCTION opening_positions_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO opening_positions (key, game_id, played, ply, result, turn) ${inIndexOrder(openingRows('new_rows s'))};
        RETURN NULL;
      END $$`;

export const OPENING_POSITIONS_ADDED_TRIGGER = `CREATE TRIGGER opening_positions_added AFTER INSERT ON game_positions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION opening_positions_added()`;
