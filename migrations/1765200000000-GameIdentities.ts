import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Game identities (docs/identity.md): one row per game whose replay gives one, holding its start and
 * plies written in the orientation chosen from the game alone (`src/formats/families/positions.ts`),
 * so every file of a game — another format, a turned board, colours swapped — holds the same
 * `sequence`, and a broken-off copy holds its beginning.
 *
 * - `whole`: a 64-bit hash of the family, the board and the whole sequence: files of the same game share it.
 * - `head`: the same of the start and the first 30 plies (all of them, for a shorter game): a game
 *   and its broken-off copies share it, and one index on it finds them all; the bytes confirm.
 * - `transforms` (bit t: transform t) turn the game's board into the sequence's orientation, `first_seat` the seat of
 *   the first mover where colours are written relative to it (Go, Dots): two rows give the
 *   symmetry and the colour swap between their games without replaying either.
 * - `signature`: Go's Dyer signature, searchable.
 * - `ended`: the line ends as the rules end a game that a later ply may still follow (Go's two
 *   passes, a Dots grounding): such a game is a broken-off copy of a longer one however short.
 *
 * A new table only: games stored before it get their rows from `POST /reindex`.
 */
export class GameIdentities1765200000000 implements MigrationInterface {
  name = 'GameIdentities1765200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE game_identities (
        game_id    bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        plies      integer NOT NULL CHECK (plies >= 0),
        head       bigint NOT NULL,
        whole      bigint NOT NULL,
        transforms smallint NOT NULL CHECK (transforms BETWEEN 1 AND 255),
        first_seat smallint,
        signature  text,
        ended      boolean NOT NULL,
        sequence   bytea NOT NULL
      )`);
    // The plies are small integers: a few hundred bytes a game, which pglz compresses poorly; kept in the row.
    await db.query(`ALTER TABLE game_identities ALTER COLUMN sequence SET STORAGE MAIN`);
    await db.query(`CREATE INDEX game_identities_head ON game_identities (head, plies, game_id)`);
    await db.query(`CREATE INDEX game_identities_signature ON game_identities (signature, game_id) WHERE signature IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE game_identities`);
  }
}
