import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The clients' rate-limit counts (docs/limits.md), shared by every node on one PostgreSQL server:
 * one row per client and budget (`key` is `reads:<client>` or `writes:<client>`, the client a token
 * or an address), its units spent (`points`) and when its window ends (`expire`, ms since the epoch).
 * The columns are those rate-limiter-flexible's RateLimiterPostgres reads and writes; it is made here
 * so that no node issues DDL at run time. UNLOGGED: a count lives one minute, so it is not worth
 * writing to the WAL on every request, nor sending to the replicas; a crash empties the table, which
 * gives every client a fresh minute. The embedded database gets the table too (the same schema on
 * both) but counts in memory.
 */
export class RateLimits1766100000000 implements MigrationInterface {
  name = 'RateLimits1766100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE UNLOGGED TABLE rate_limits (
        key    varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE rate_limits`);
  }
}
