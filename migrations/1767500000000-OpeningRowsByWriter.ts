import type { MigrationInterface, QueryRunner } from 'typeorm';
import { OPENING_POSITIONS_ADDED_FUNCTION, OPENING_POSITIONS_ADDED_TRIGGER } from './1765800000000-OpeningPositions.js';

/**
 * The position index's writer adds the `opening_positions` rows of the games it stores in its own
 * statement (src/indexes/positions/position-rows.ts), from the keys and plies it already has: the
 * trigger that found them again in each statement's new `game_positions` rows (reading the keys out
 * of the heads' bytes in SQL) goes. It took about 30 µs a game of the server's time in the import,
 * a tenth of its share (measured with track_functions). Rows already there stay as they are; a
 * deleted row's openings are still removed by the row trigger.
 */
export class OpeningRowsByWriter1767500000000 implements MigrationInterface {
  name = 'OpeningRowsByWriter1767500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER opening_positions_added ON game_positions`);
    await db.query(`DROP FUNCTION opening_positions_added()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(OPENING_POSITIONS_ADDED_FUNCTION);
    await db.query(OPENING_POSITIONS_ADDED_TRIGGER);
  }
}
