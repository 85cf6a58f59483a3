import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createScratchDatabase } from '../support/scratch-database.js';
import type { ScratchDatabase } from '../support/scratch-database.js';
import { startServer, stop } from '../support/server-process.js';
import type { RunningServer } from '../support/server-process.js';
import { tarOf } from '../support/archive-entries.js';

/**
 * Two nodes on one PostgreSQL database (issue 32): the node running an import dies (kill -9) or
 * stalls (SIGSTOP) part-way; the other takes the import over within IMPORT_TAKEOVER_MS and finishes
 * it: every file recorded once, every game stored once. After the kill the dead node's spool folder
 * is removed (another machine's disk would be out of reach), so the body is read from the database.
 * Only a PostgreSQL server has several processes on one database.
 */
const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
const onServer = serverUrl ? describe : describe.skip;

const COUNT = 600;
const TAKEOVER_MS = 3_000;
const game = (i: number) => `(;GM[1]FF[4]SZ[9]PB[Takeover ${i}]PW[Node]RE[B+R];B[ee];W[${String.fromCharCode(97 + (i % 9))}a])`;

interface ImportRow {
  state: string;
  owner: string | null;
  files_done: number;
  files_total: number;
  games_stored: number;
  duplicates: number;
  refused: number;
}

onServer('an import whose node dies, with two nodes on one database (only on a PostgreSQL server)', () => {
  let database: ScratchDatabase;
  let client: pg.Client;
  const folders: string[] = [];
  const nodes: RunningServer[] = [];

  beforeEach(async () => {
    database = await createScratchDatabase(serverUrl!, 'tabula_test_takeover');
  });
  afterEach(async () => {
    for (const node of nodes.splice(0)) {
      if (node.process.signalCode === null && node.process.exitCode === null) node.process.kill('SIGCONT');
      await stop(node, 'SIGKILL');
    }
    await client?.end();
    await database.drop();
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  /** A node with a temporary folder of its own (its import spool is there), on the scratch database. */
  async function node(): Promise<RunningServer> {
    const folder = await mkdtemp(join(tmpdir(), 'tabula-node-'));
    folders.push(folder);
    const started = await startServer({ DATABASE_URL: database.url, TMPDIR: folder, IMPORT_TAKEOVER_MS: String(TAKEOVER_MS), ANALYSIS_THREADS: '1', DOTS_PORT: '0', LOG_LEVEL: 'warn' });
    nodes.push(started);
    return started;
  }

  async function row(id: number): Promise<ImportRow> {
    const { rows } = await client.query<ImportRow>(`SELECT state, owner, files_done, files_total, games_stored, duplicates, refused FROM imports WHERE id = $1`, [id]);
    return rows[0];
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>, withinMs: number): Promise<T> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Starts two nodes, posts the import to the first and waits until it has finished some files. */
  async function importUnderWay(): Promise<{ a: RunningServer; b: RunningServer; id: number }> {
    const [a, b] = [await node(), await node()];
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const body = await tarOf(Array.from({ length: COUNT }, (_, i) => ({ name: `takeover/${i}.sgf`, bytes: Buffer.from(game(i)) })));
    const answer = await fetch(`${a.baseUrl}/imports`, { method: 'POST', body: new Uint8Array(body), headers: { 'Content-Type': 'application/x-tar' } });
    expect(answer.status).toBe(202);
    const { id } = (await answer.json()) as { id: number };
    await until('the first node working on the import', async () => ((await row(id)).files_done >= 20 ? true : undefined), 60_000);
    return { a, b, id };
  }

  /**
   * Waits until the import goes on past where it was left (only b can move it on), within
   * `withinMs`; answers how long after `since` its owner changed from the one it was left with.
   */
  async function goingOnWithoutA(id: number, left: ImportRow, since: number, withinMs: number): Promise<number | undefined> {
    let claimedAfter: number | undefined;
    await until('the other node going on with the import', async () => {
      const now = await row(id);
      if (claimedAfter === undefined && now.owner !== left.owner) claimedAfter = Date.now() - since;
      return now.files_done > left.files_done || now.state !== 'running' ? true : undefined;
    }, withinMs);
    return claimedAfter;
  }

  /** What the finished import must be: every file once, every game once, its body gone from the database. */
  async function expectFinishedOnce(b: RunningServer, id: number): Promise<void> {
    const done = await until('the import finished', async () => {
      const answer = await fetch(`${b.baseUrl}/imports/${id}`);
      const json = (await answer.json()) as Record<string, unknown>;
      return json.state === 'running' ? undefined : json;
    }, 120_000);
    expect(done).toMatchObject({ state: 'done', filesTotal: COUNT, filesDone: COUNT, gamesStored: COUNT, duplicates: 0, refused: 0 });
    const lines = (await (await fetch(`${b.baseUrl}/imports/${id}/results`)).text()).trimEnd().split('\n').map((line) => JSON.parse(line) as { position: number; outcome: string; gameIds: number[] });
    expect(lines.map((line) => line.position)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
    expect(lines.every((line) => line.outcome === 'indexed' && line.gameIds.length === 1)).toBe(true);
    const { rows } = await client.query(
      `SELECT (SELECT count(*)::int FROM games) AS games, (SELECT count(*)::int FROM uploads) AS uploads,
              (SELECT count(DISTINCT sha256)::int FROM uploads) AS distinct_uploads, (SELECT count(*)::int FROM import_spool WHERE import_id = $1) AS spool_chunks`,
      [id],
    );
    expect(rows).toEqual([{ games: COUNT, uploads: COUNT, distinct_uploads: COUNT, spool_chunks: 0 }]);
  }

  it('killed (-9) mid-import: the other node takes it over within IMPORT_TAKEOVER_MS and finishes it, each file counted once', async () => {
    const { a, b, id } = await importUnderWay();
    a.process.kill('SIGKILL');
    await a.exited;
    const killedAt = Date.now();
    // a's disk goes with it (another machine's, as far as b is concerned): b must read the body from the database.
    const spooled = join(folders[0], 'tabula-imports');
    expect(await readdir(spooled)).toHaveLength(1);
    await rm(spooled, { recursive: true });
    // A commit a sent just before it died is given time to land, so that only b moves the import on from here.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const atKill = await row(id);
    expect(atKill.state).toBe('running');
    expect(atKill.files_done).toBeLessThan(COUNT);
    const claimedAfter = await goingOnWithoutA(id, atKill, killedAt, 3 * TAKEOVER_MS);
    // a owned it when it died; b, the one node left, claimed it within the stated time.
    expect(atKill.owner).not.toBeNull();
    expect(claimedAfter).toBeLessThanOrEqual(TAKEOVER_MS);
    await expectFinishedOnce(b, id);
    // b made a copy of the body (a's folder being out of reach), and removed it with the import's end.
    expect(await readdir(join(folders[1], 'tabula-imports'))).toEqual(['copies']);
    expect(await readdir(join(folders[1], 'tabula-imports', 'copies'))).toEqual([]);
  }, 240_000);

  it('stalled (SIGSTOP) past its lease: the other node takes it over and finishes it, and the stalled one, going on, leaves it', async () => {
    const { a, b, id } = await importUnderWay();
    a.process.kill('SIGSTOP');
    const stoppedAt = Date.now();
    // A commit a sent just before it stopped is given time to land, so that only b moves the import on from here.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const atStop = await row(id);
    // Within the lease, or, when a stopped mid-transaction with the import's row locked, once the
    // server has ended its idle transaction (IDLE_IN_TRANSACTION_MS, 10 s).
    await goingOnWithoutA(id, atStop, stoppedAt, 10_000 + 2 * TAKEOVER_MS);
    a.process.kill('SIGCONT');
    await expectFinishedOnce(b, id);
    // a found it was no longer its own (its next heartbeat or write said so) and left it.
    await until('the stalled node saying it left the import', async () => (/was taken over by another node/.test(a.output()) ? true : undefined), 2 * TAKEOVER_MS);
    expect(a.process.exitCode).toBeNull();
  }, 240_000);
});
