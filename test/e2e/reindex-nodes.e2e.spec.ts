import pg from 'pg';
import * as tar from 'tar-stream';
import { createScratchDatabase } from '../support/scratch-database.js';
import type { ScratchDatabase } from '../support/scratch-database.js';
import { startServer, stop } from '../support/server-process.js';
import type { RunningServer } from '../support/server-process.js';

/**
 * POST /reindex with two nodes on one PostgreSQL database (issue 32). A re-index batch is no
 * background job: it runs inside its request, and the client holds where it is (`after`). What
 * must hold with several nodes: a batch cut by the death of its node (kill -9), called again on
 * the other node, and the same batch run by both nodes at once, leave every game's index exactly as
 * one re-reading does — here, as the import that stored the games left it, the plugins being the
 * same: no player, analysis or position row twice, position counts not added twice.
 */
const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
const onServer = serverUrl ? describe : describe.skip;

const COUNT = 120;
const game = (i: number) => `(;GM[1]FF[4]SZ[9]PB[Reindex ${i}]PW[Node ${i % 7}]RE[W+R];B[ee];W[${String.fromCharCode(97 + (i % 9))}a];B[c${String.fromCharCode(97 + (i % 5))}])`;

async function tarOf(count: number): Promise<Buffer> {
  const pack = tar.pack();
  for (let i = 0; i < count; i++) pack.entry({ name: `reindex/${i}.sgf` }, Buffer.from(game(i)));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

onServer('re-index batches with two nodes on one database (only on a PostgreSQL server)', () => {
  let database: ScratchDatabase;
  let client: pg.Client;
  const nodes: RunningServer[] = [];
  /** What the import made of the games, table by table. */
  let made: Record<string, string>;

  beforeAll(async () => {
    database = await createScratchDatabase(serverUrl!, 'tabula_test_reindex_nodes');
    for (let i = 0; i < 2; i++) nodes.push(await startServer({ DATABASE_URL: database.url, ANALYSIS_THREADS: '1', DOTS_PORT: '0', LOG_LEVEL: 'warn' }));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const answer = await fetch(`${nodes[0].baseUrl}/imports`, { method: 'POST', body: new Uint8Array(await tarOf(COUNT)), headers: { 'Content-Type': 'application/x-tar' } });
    expect(answer.status).toBe(202);
    const { id } = (await answer.json()) as { id: number };
    for (;;) {
      const state = ((await (await fetch(`${nodes[0].baseUrl}/imports/${id}`)).json()) as { state: string; gamesStored: number }).state;
      if (state !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await count(`SELECT count(*)::int AS n FROM games`)).toBe(COUNT);
    made = await derived();
    // Every game has its two players and its positions: the comparison has something to compare.
    expect(await count(`SELECT count(*)::int AS n FROM game_players`)).toBe(2 * COUNT);
    expect(await count(`SELECT count(*)::int AS n FROM game_positions`)).toBe(COUNT);
  }, 120_000);
  afterAll(async () => {
    for (const node of nodes) await stop(node, 'SIGKILL');
    await client?.end();
    await database?.drop();
  });

  async function count(sql: string): Promise<number> {
    return (await client.query<{ n: number }>(sql)).rows[0].n;
  }

  /** A digest of every row re-indexing writes, per table (without surrogate ids and times). */
  async function derived(): Promise<Record<string, string>> {
    const digests: Record<string, string> = {};
    for (const table of ['game_players', 'game_analyses', 'game_positions', 'position_counts']) {
      const { rows } = await client.query<{ digest: string; n: number }>(
        `SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS digest, count(*)::int AS n
           FROM (SELECT to_jsonb(t) - 'id' - 'created_at' - 'updated_at' AS r FROM ${table} t) AS rows`,
      );
      digests[table] = `${rows[0].n} rows, ${rows[0].digest}`;
    }
    return digests;
  }

  /** Each game's row version: it changes when a re-index rewrites the game. */
  async function versions(): Promise<Map<string, string>> {
    const { rows } = await client.query<{ id: string; v: string }>(`SELECT id, xmin::text AS v FROM games`);
    return new Map(rows.map((row) => [row.id, row.v]));
  }

  const rewrittenSince = async (before: Map<string, string>) => [...(await versions())].filter(([id, v]) => before.get(id) !== v).length;
  const reindex = (node: RunningServer) => fetch(`${node.baseUrl}/reindex?limit=${COUNT}`, { method: 'POST' });

  it('a batch cut by kill -9 of its node, called again on the other node, leaves every game indexed once', async () => {
    const before = await versions();
    const cut = reindex(nodes[0]).catch((error: unknown) => error);
    for (;;) {
      const done = await rewrittenSince(before);
      if (done >= 10) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    nodes[0].process.kill('SIGKILL');
    await nodes[0].exited;
    // The client learns only that the call failed.
    expect(await cut).toMatchObject({ message: 'fetch failed' });
    const atKill = await rewrittenSince(before);
    expect(atKill).toBeLessThan(COUNT);

    const again = await reindex(nodes[1]);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ reindexed: COUNT, indexed: COUNT, refused: [], next: null });
    expect(await rewrittenSince(before)).toBe(COUNT);
    expect(await derived()).toEqual(made);
    nodes[0] = await startServer({ DATABASE_URL: database.url, ANALYSIS_THREADS: '1', DOTS_PORT: '0', LOG_LEVEL: 'warn' });
  }, 120_000);

  it('the same batch run by both nodes at once leaves every game indexed once', async () => {
    const before = await versions();
    const answers = await Promise.all(nodes.map(reindex));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ reindexed: COUNT, indexed: COUNT, refused: [], next: null });
    }
    expect(await rewrittenSince(before)).toBe(COUNT);
    expect(await derived()).toEqual(made);
  }, 120_000);
});
