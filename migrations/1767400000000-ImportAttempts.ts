import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many runs of an import have begun in a row at the same entry (docs/bulk-import.md): a run
 * that fails every time — an error outside a file's own tries, or a node that dies on the same file
 * — was taken up again forever. `attempts` counts the runs begun at entry `attempted_from`; once
 * they pass IMPORT_ATTEMPTS the import ends as failed. A small table: the columns are added without
 * rewriting it.
 */
export class ImportAttempts1767400000000 implements MigrationInterface {
  name = 'ImportAttempts1767400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE imports ADD COLUMN attempts integer NOT NULL DEFAULT 0, ADD COLUMN attempted_from integer`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE imports DROP COLUMN attempts, DROP COLUMN attempted_from`);
  }
}
