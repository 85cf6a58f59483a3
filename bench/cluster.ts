import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { filesUnder } from '../test/support/files.js';
import { createScratchDatabase } from '../test/support/scratch-database.js';
import { percentile, serveArchive, sleep } from './served.js';
import type { ServedArchive } from './served.js';

/**
 * One node against two nodes and a streaming replica (issue 32), in one run on the PostgreSQL server
 * BENCH_DATABASE_URL names: the same uploads (GNU Go's regression games, each copy made distinct by
 * a game name) from 8 clients, then 8 clients searching for BENCH_CLUSTER_SECONDS (player name parts,
 * the newest page, a game by id, player statistics, the explorer of the empty board). With two nodes
 * the clients take turns between them, as a load balancer would, and the nodes send their reads to
 * the replica (BENCH_REPLICA_URL, or one made here with test/support/replica-cluster.sh and removed
 * after). Each side gets a fresh database. Also printed: which server answered the reads (the
 * databases' transaction counters) and what the one node's database holds per game and per ply,
 * table by table (the figures docs/scale.md scales up).
 *
 * On one machine of 2 cores the nodes, the primary, the replica and the clients share the same two
 * cores: the ratio shows what a second node and a replica cost, not what they would gain on hosts
 * of their own.
 */
const UPLOADS = Number(process.env.BENCH_CLUSTER_UPLOADS ?? 600);
const SECONDS = Number(process.env.BENCH_CLUSTER_SECONDS ?? 15);
const CLIENTS = 8;
const FOLDER = 'test/fixtures/realdata/go/gnugo_regression_games';
const CLUSTER_SCRIPT = new URL('../../test/support/replica-cluster.sh', import.meta.url).pathname;

interface Side {
  readonly label: string;
  uploadsPerSecond: number;
  searchesPerSecond: number;
  p50: number;
  p95: number;
  errors: number;
  /** Transactions the primary and the replica committed in the database during the searches. */
  primaryXacts?: number;
  replicaXacts?: number;
}

export async function run(): Promise<void> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log('cluster: set BENCH_DATABASE_URL=postgres://… (a PostgreSQL server; a replica is made from it unless BENCH_REPLICA_URL names one)');
    return;
  }
  const corpus = filesUnder(FOLDER, '.sgf').map((path) => readFileSync(path, 'latin1'));
  const uploads = Array.from({ length: UPLOADS }, (_, n) => Buffer.from(distinct(corpus[n % corpus.length], n), 'latin1'));
  let replicaDir: string | undefined;
  let replicaServer = process.env.BENCH_REPLICA_URL;
  if (!replicaServer) {
    replicaDir = mkdtempSync(join(tmpdir(), 'tabula-bench-replica-'));
    const primary = new URL(serverUrl);
    const port = execFileSync('bash', [CLUSTER_SCRIPT, 'create', replicaDir, primary.hostname, primary.port || '5432'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
    replicaServer = `postgres://postgres@127.0.0.1:${port}/postgres`;
    console.log(`cluster: a replica made for the run on port ${port}`);
  }
  try {
    const sides: Side[] = [];
    const one = await createScratchDatabase(serverUrl, 'tabula_bench_cluster');
    try {
      const node = await serveArchive({ DATABASE_URL: one.url });
      try {
        sides.push(await measure('one node', [node], uploads));
      } finally {
        await node.stop();
      }
      await printSizes(one.url);
    } finally {
      await one.drop();
    }

    const two = await createScratchDatabase(serverUrl, 'tabula_bench_cluster');
    try {
      const replicaUrl = inDatabase(replicaServer, two.name);
      await waitForDatabase(replicaUrl);
      const settings = { DATABASE_URL: two.url, DATABASE_REPLICA_URLS: replicaUrl };
      const nodes = await Promise.all([serveArchive(settings), serveArchive(settings)]);
      try {
        for (const node of nodes) await replicaInRotation(node);
        sides.push(await measure('two nodes + a replica', nodes, uploads, { primary: two.url, replica: replicaUrl }));
      } finally {
        await Promise.all(nodes.map((node) => node.stop()));
      }
    } finally {
      await two.drop();
    }
    print(sides);
  } finally {
    if (replicaDir) execFileSync('bash', [CLUSTER_SCRIPT, 'remove', replicaDir], { stdio: 'inherit' });
  }
}

/** A copy of an SGF file with bytes of its own: a game name in its first node. */
function distinct(sgf: string, n: number): string {
  return sgf.replace(/\(\s*;/, `(;GN[cluster bench ${n}]`);
}

async function measure(label: string, nodes: readonly ServedArchive[], uploads: readonly Buffer[], counters?: { primary: string; replica: string }): Promise<Side> {
  const ids: number[] = [];
  let errors = 0;
  let next = 0;
  let turn = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let n = next++; n < uploads.length; n = next++) {
        const node = nodes[turn++ % nodes.length];
        const answer = await fetch(`${node.baseUrl}/games`, { method: 'POST', body: new Uint8Array(uploads[n]), headers: { 'Content-Type': 'application/x-go-sgf' } });
        const body = (await answer.json()) as { id?: number };
        if (answer.status === 201 || answer.status === 200) ids.push(body.id!);
        else errors++;
      }
    }),
  );
  const uploadsPerSecond = uploads.length / ((performance.now() - started) / 1000);

  const paths = (i: number): string => {
    const id = ids[i % ids.length];
    return [
      `/games?player=gnu&limit=20`,
      `/games?player=vik&limit=20`,
      `/games?limit=20`,
      `/games/${id}`,
      `/players?name=gn`,
      `/positions/explorer?game=${id}&ply=0`,
    ][i % 6];
  };
  const before = counters ? await xacts(counters) : undefined;
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  let asked = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const i = asked++;
        const node = nodes[i % nodes.length];
        const sent = performance.now();
        const answer = await fetch(`${node.baseUrl}${paths(i)}`);
        await answer.arrayBuffer();
        times.push(performance.now() - sent);
        if (answer.status !== 200) errors++;
      }
    }),
  );
  // The statistics of a backend reach the views within a second or so of its last transaction.
  const after = counters ? (await sleep(1500), await xacts(counters)) : undefined;
  times.sort((a, b) => a - b);
  return {
    label,
    uploadsPerSecond,
    searchesPerSecond: times.length / SECONDS,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    errors,
    primaryXacts: before && after ? after.primary - before.primary : undefined,
    replicaXacts: before && after ? after.replica - before.replica : undefined,
  };
}

function print(sides: readonly Side[]): void {
  const [one, two] = sides;
  const row = (name: string, a: string, b: string, ratio: string) => console.log(`cluster: ${name.padEnd(24)} ${a.padStart(14)} ${b.padStart(24)} ${ratio.padStart(8)}`);
  console.log(`cluster: ${UPLOADS} uploads, then ${SECONDS} s of searches, ${CLIENTS} clients each; 2 cores shared by everything: the ratio is overhead, not speed-up`);
  row('', one.label, two.label, 'ratio');
  row('uploads (games/s)', one.uploadsPerSecond.toFixed(0), two.uploadsPerSecond.toFixed(0), (two.uploadsPerSecond / one.uploadsPerSecond).toFixed(2));
  row('searches (requests/s)', one.searchesPerSecond.toFixed(0), two.searchesPerSecond.toFixed(0), (two.searchesPerSecond / one.searchesPerSecond).toFixed(2));
  row('search p50 (ms)', one.p50.toFixed(1), two.p50.toFixed(1), (two.p50 / one.p50).toFixed(2));
  row('search p95 (ms)', one.p95.toFixed(1), two.p95.toFixed(1), (two.p95 / one.p95).toFixed(2));
  row('answers not 2xx', String(one.errors), String(two.errors), '');
  if (two.primaryXacts !== undefined && two.replicaXacts !== undefined) {
    const total = two.primaryXacts + two.replicaXacts;
    console.log(
      `cluster: during the searches with a replica, the database's transactions: ${two.replicaXacts} on the replica, ${two.primaryXacts} on the primary (${((100 * two.replicaXacts) / Math.max(1, total)).toFixed(0)} % on the replica; the primary's include the nodes' replica checks and the imports' lease polls)`,
    );
  }
}

/** Rows and bytes (table, TOAST and indexes) per table, per game and per indexed ply. */
async function printSizes(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE');
    const tables = (await client.query<{ name: string; bytes: string }>(`SELECT relname AS name, pg_total_relation_size(relid) AS bytes FROM pg_stat_user_tables WHERE schemaname = 'public' ORDER BY pg_total_relation_size(relid) DESC`)).rows;
    const games = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM games')).rows[0].n);
    const plies = Number((await client.query<{ n: string | null }>('SELECT sum(move_count) AS n FROM game_analyses')).rows[0].n ?? 0);
    console.log(`cluster: the one node's database after ${games} games (${plies} plies, ${(plies / games).toFixed(0)} a game): rows, bytes with indexes and TOAST, per game`);
    let total = 0;
    for (const table of tables) {
      const rows = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table.name}"`)).rows[0].n);
      const bytes = Number(table.bytes);
      total += bytes;
      if (rows === 0 && bytes < 64 * 1024) continue;
      const perPly = table.name === 'game_positions' ? `, ${(bytes / plies).toFixed(1)} B per ply` : '';
      console.log(`cluster:   ${table.name.padEnd(22)} ${String(rows).padStart(8)} rows ${(bytes / 1024).toFixed(0).padStart(8)} kB ${(bytes / games).toFixed(0).padStart(7)} B/game${perPly}`);
    }
    console.log(`cluster:   ${'all tables'.padEnd(22)} ${''.padStart(13)} ${(total / 1024).toFixed(0).padStart(8)} kB ${(total / games).toFixed(0).padStart(7)} B/game`);
  } finally {
    await client.end();
  }
}

async function xacts(counters: { primary: string; replica: string }): Promise<{ primary: number; replica: number }> {
  const read = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n);
    } finally {
      await client.end();
    }
  };
  return { primary: await read(counters.primary), replica: await read(counters.replica) };
}

function inDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function waitForDatabase(url: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      if (tries > 100) throw error;
      await sleep(100);
    }
  }
}

async function replicaInRotation(node: ServedArchive): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    const health = (await (await fetch(`${node.baseUrl}/health`)).json()) as { replicas?: { inRotation: boolean }[] };
    if (health.replicas?.every((replica) => replica.inRotation)) return;
    await sleep(100);
  }
  throw new Error('the replica did not join the rotation within 30 s');
}
