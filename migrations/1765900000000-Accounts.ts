import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts, their tokens, the audit trail, and the owner of every game, upload and import
 * (docs/accounts.md).
 *
 * - `accounts`: a name each. `admin` (the account of API_KEYS' keys) and `dots-server` (the games
 *   the live Dots server archives) are made here; the others when a token is first made for them.
 * - `tokens`: a token's secret is never kept, only its SHA-256 (`secret_sha256`); a token is
 *   `tabula_<id>_<secret>`, looked up by its id and compared by digest in constant time. A revoked
 *   token keeps its row (`revoked_at`), which the audit trail names.
 * - `audit`: one row per write and per refused write, newest first by id.
 * - `owner` on games and uploads, `account` on imports (whose `owner` is the node running it): the
 *   account that published it; null for what was stored
 *   before (or while the archive was open). Adding a nullable column without a default writes no
 *   row: PostgreSQL records it in the catalogue only. The partial index on games holds the games
 *   with an owner alone, so it is empty on an archive stored before and costs one scan to build.
 */
export class Accounts1765900000000 implements MigrationInterface {
  name = 'Accounts1765900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE accounts (
        name       text PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`INSERT INTO accounts (name) VALUES ('admin'), ('dots-server')`);
    await db.query(`
      CREATE TABLE tokens (
        id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account       text NOT NULL REFERENCES accounts (name),
        name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        scopes        text[] NOT NULL,
        secret_sha256 bytea NOT NULL CHECK (octet_length(secret_sha256) = 32),
        created_at    timestamptz NOT NULL DEFAULT now(),
        expires_at    timestamptz,
        revoked_at    timestamptz,
        last_used_at  timestamptz
      )`);
    await db.query(`CREATE INDEX tokens_account ON tokens (account)`);
    await db.query(`
      CREATE TABLE audit (
        id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at         timestamptz NOT NULL DEFAULT now(),
        account    text,
        token_id   text,
        action     text NOT NULL,
        target     text,
        status     smallint NOT NULL,
        request_id text
      )`);
    await db.query(`CREATE INDEX audit_account ON audit (account, id)`);
    await db.query(`CREATE INDEX audit_action ON audit (action, id)`);
    await db.query(`CREATE INDEX audit_at ON audit (at)`);
    for (const table of ['games', 'uploads']) await db.query(`ALTER TABLE ${table} ADD COLUMN owner text`);
    await db.query(`ALTER TABLE imports ADD COLUMN account text`);
    await db.query(`CREATE INDEX games_owner ON games (owner, id) WHERE owner IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX games_owner`);
    for (const table of ['games', 'uploads']) await db.query(`ALTER TABLE ${table} DROP COLUMN owner`);
    await db.query(`ALTER TABLE imports DROP COLUMN account`);
    await db.query(`DROP TABLE audit`);
    await db.query(`DROP TABLE tokens`);
    await db.query(`DROP TABLE accounts`);
  }
}
