import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What pattern search counts besides a game's line, kept in the line's own row (docs/patterns.md):
 * how the game ended (the winner's colour, `draw`, or null) and the day it was played, written by
 * the patterns index from the same reading as the line. The search's filter reads them with the
 * rows it keeps in memory, so that confirming a candidate reads nothing from the database; only
 * whether the games found are still there (and pass the search's filters) is asked after.
 *
 * `facts` says a row has them: the rows written before stay without (false, no rewrite of the
 * table) and are confirmed as before, their facts read with their lines, until
 * `POST /reindex?indexes=patterns` writes them again.
 */
export class PatternFacts1767200000000 implements MigrationInterface {
  name = 'PatternFacts1767200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_patterns ADD COLUMN result text, ADD COLUMN played date, ADD COLUMN facts boolean NOT NULL DEFAULT false`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE game_patterns DROP COLUMN result, DROP COLUMN played, DROP COLUMN facts`);
  }
}
