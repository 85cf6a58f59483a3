import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One Dots lobby across the nodes on one PostgreSQL (issue 32). `dots_nodes` lists the live Dots
 * servers, each with a heartbeat; a node whose heartbeat is older than DOTS_NODE_LEASE_MS is dead,
 * and another node removes its row. `dots_games.node` is the node a game lives on (its engine,
 * timers and saves): null for games of the embedded database and of servers before this migration.
 * `dots_logins` says which node serves a login now (one connection at a time across the cluster).
 *
 * Adding a nullable column without a default rewrites nothing.
 */
export class DotsCluster1765400000000 implements MigrationInterface {
  name = 'DotsCluster1765400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE dots_nodes (
        node         text PRIMARY KEY,
        label        text NOT NULL,
        started_at   timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE dots_logins (
        login      text PRIMARY KEY REFERENCES dots_accounts (login) ON DELETE CASCADE,
        node       text NOT NULL,
        claimed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`ALTER TABLE dots_games ADD COLUMN node text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE dots_games DROP COLUMN node`);
    await db.query(`DROP TABLE dots_logins`);
    await db.query(`DROP TABLE dots_nodes`);
  }
}
