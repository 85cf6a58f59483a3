import type { MigrationInterface, QueryRunner } from 'typeorm';
import { loginKey } from '../src/dots-server/login-key.js';

/**
 * Dots logins are unique as a reader sees them: `dots_accounts.login_key` is the login's key
 * (src/dots-server/login-key.ts: case-folded, then its UTS #39 confusable skeleton), unique, so
 * that `Victim` or `vіctim` (a Cyrillic і) cannot be registered beside `victim`.
 *
 * The keys of existing accounts are computed here, in JavaScript (PostgreSQL has no skeleton). Two
 * existing accounts that share a key both stay, and both still log in: the oldest holds the key,
 * the younger ones keep none (a unique index allows several NULLs), and any new login of that key
 * is refused.
 */
export class DotsLogins1766000000000 implements MigrationInterface {
  name = 'DotsLogins1766000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE dots_accounts ADD COLUMN login_key text`);
    const rows: { login: string }[] = await db.query(`SELECT login FROM dots_accounts ORDER BY created_at, login`);
    const holders = new Map<string, string>();
    for (const { login } of rows) {
      const key = loginKey(login);
      if (!holders.has(key)) holders.set(key, login);
    }
    if (holders.size > 0) {
      await db.query(`UPDATE dots_accounts a SET login_key = k.key FROM unnest($1::text[], $2::text[]) AS k(login, key) WHERE a.login = k.login`, [
        [...holders.values()],
        [...holders.keys()],
      ]);
    }
    await db.query(`CREATE UNIQUE INDEX dots_accounts_login_key ON dots_accounts (login_key)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX dots_accounts_login_key`);
    await db.query(`ALTER TABLE dots_accounts DROP COLUMN login_key`);
  }
}
