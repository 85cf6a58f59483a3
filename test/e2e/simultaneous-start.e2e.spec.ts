import pg from 'pg';
import { MIGRATIONS } from '../../migrations/index.js';
import { MIGRATION_LOCK_KEY } from '../../src/database/database.repository.js';
import { runMigrations } from '../../src/database/database-options.js';
import { freePort } from '../support/free-port.js';
import { createScratchDatabase } from '../support/scratch-database.js';
import type { ScratchDatabase } from '../support/scratch-database.js';
import { spawnServer, stop } from '../support/server-process.js';
import type { Ending, RunningServer } from '../support/server-process.js';

/**
 * Several nodes on one PostgreSQL database (issue 32): started at the same moment on an empty
 * database, every one of them must come up, the migrations applied once. Without the migrations'
 * advisory lock two nodes raced to create the `migrations` table, the same extension and the same
 * columns, and all but one exited. Only a PostgreSQL server has several processes on one database:
 * the embedded one belongs to one process (DATA_DIR's lock).
 */
const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
const onServer = serverUrl ? describe : describe.skip;

const NODES = 3;
/** CI runs 3 rounds; the ten: TABULA_START_ROUNDS=10. */
const ROUNDS = Number(process.env.TABULA_START_ROUNDS ?? 3);

async function migrationsApplied(url: string): Promise<{ name: string; times: number }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; times: number }>(`SELECT name, count(*)::int AS times FROM migrations GROUP BY name ORDER BY name`);
    return rows;
  } finally {
    await client.end();
  }
}

/** Starts the built server on `port` without waiting; answers once /health says 200, or how it ended first. */
async function serving(server: Omit<RunningServer, 'baseUrl'>, port: number): Promise<'serving' | Ending> {
  let ending: Ending | undefined;
  void server.exited.then((how) => (ending = how));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (ending) return ending;
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) return 'serving';
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the node on port ${port} neither served nor exited within 90 s:\n${server.output()}`);
}

onServer('nodes started at once on one empty database (only on a PostgreSQL server)', () => {
  it(`all come up, ${NODES} at a time in ${ROUNDS} rounds, each migration applied once`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const database = await createScratchDatabase(serverUrl!, 'tabula_test_nodes');
      const ports = await Promise.all(Array.from({ length: NODES }, () => freePort()));
      // Spawned in one go, before any of them is waited for.
      const nodes = ports.map((port) => spawnServer({ DATABASE_URL: database.url, ANALYSIS_THREADS: '1', DOTS_PORT: '0' }, port));
      try {
        const outcomes = await Promise.all(nodes.map((node, i) => serving(node, ports[i])));
        const failed = outcomes.flatMap((outcome, i) => (outcome === 'serving' ? [] : [`round ${round}, node ${i + 1} exited (${outcome.code ?? outcome.signal}):\n${nodes[i].output()}`]));
        expect(failed).toEqual([]);
        expect(await migrationsApplied(database.url)).toEqual(MIGRATIONS.map((migration) => ({ name: migration.name, times: 1 })).sort((a, b) => a.name.localeCompare(b.name)));
      } finally {
        await Promise.all(nodes.map((node) => stop({ ...node, baseUrl: '' })));
        await database.drop();
      }
    }
  }, ROUNDS * 100_000);
});

onServer('the migrations lock (only on a PostgreSQL server)', () => {
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await createScratchDatabase(serverUrl!, 'tabula_test_lock');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('makes migrations wait while another session holds it, and run once it is given back', async () => {
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    let migrated = false;
    let migrating: Promise<void> | undefined;
    try {
      await other.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      migrating = runMigrations(database.url, { lock: true }).then(() => {
        migrated = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(migrated).toBe(false);
      const { rows } = await other.query<{ here: boolean }>(`SELECT to_regclass('public.migrations') IS NOT NULL AS here`);
      expect(rows).toEqual([{ here: false }]);
      // The migrating session waits on the lock, in the server's own view.
      const waiting = await other.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
        [MIGRATION_LOCK_KEY],
      );
      expect(waiting.rows).toEqual([{ n: 1 }]);
      await other.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]);
      await migrating;
      expect(migrated).toBe(true);
      expect((await migrationsApplied(database.url)).length).toBe(MIGRATIONS.length);
      // Given back: the other session takes it at once.
      expect((await other.query('SELECT pg_try_advisory_lock($1::bigint) AS got', [MIGRATION_LOCK_KEY])).rows).toEqual([{ got: true }]);
    } finally {
      await other.end();
      await migrating?.catch(() => undefined);
    }
  }, 60_000);
});
