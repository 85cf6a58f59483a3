import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { HEAVY_BOARD_TEXT } from '../test/support/peg-solitaire/boards.js';
import { memoryOf, percentile, serveArchive, ServedArchive, sleep, withScratchDatabase } from './served.js';

/**
 * Responsiveness under hostile load: 4 clients upload the heaviest inputs in a loop — a bare VK
 * code of 1,000,000 moves, a 13x10 peg board the solver spends its whole budget on (it cannot be
 * cleared, but no parity argument shows it), a 4.7 MB GoFans 1.1 game of 100,000 moves — while a prober asks for /health and a player search. The same probes
 * without the load, in the same run, are the baseline. Goal: p99 under 100 ms under load. Prints
 * RSS before and after. Embedded database always; a PostgreSQL server with BENCH_DATABASE_URL.
 */
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const BASELINE_SECONDS = 5;
const CLIENTS = 4;
const PROBE_PAUSE_MS = 20;

function heavyGoFans(): string {
  const example = readFileSync(new URL('../../test/fixtures/gofans-examples/ex_1.1.xml', import.meta.url), 'utf8');
  const moves = Array.from({ length: 100_000 }, (_, i) => `<move playerId="${i % 2}" color="${i % 2 ? 'white' : 'black'}" x="${i % 9}" y="${(i >> 3) % 9}"/>`).join('\n');
  return example.replace(/<Body>[\s\S]*<\/Body>/, `<Body>${moves}</Body>`);
}

/** The heavy inputs, each made distinct per upload so none is answered as a repeat. */
function heavyInputs(): ((n: number) => { body: string; type: string })[] {
  // Just under the 1,000,000 bytes VK detection looks at, so the code is read as one.
  const vk = 'a'.repeat(999_000);
  const gofans = heavyGoFans();
  return [
    (n) => ({ body: `${vk}${'\n'.repeat(1 + (n % 50))}`, type: 'text/plain' }),
    (n) => ({ body: `${HEAVY_BOARD_TEXT}${' '.repeat(n % 1000)}`, type: 'text/plain' }),
    (n) => ({ body: `${gofans}<!-- ${n} -->`, type: 'application/xml' }),
  ];
}

interface Probes {
  health: number[];
  search: number[];
}

async function probe(baseUrl: string, seconds: number): Promise<Probes> {
  const probes: Probes = { health: [], search: [] };
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    for (const [kind, path] of [
      ['health', '/health'],
      ['search', '/games?player=ann&limit=20'],
    ] as const) {
      const started = performance.now();
      const answer = await fetch(`${baseUrl}${path}`);
      await answer.arrayBuffer();
      probes[kind].push(performance.now() - started);
    }
    await sleep(PROBE_PAUSE_MS);
  }
  return probes;
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(sorted, 99).toFixed(1).padStart(7)} ms  max ${sorted[sorted.length - 1].toFixed(1).padStart(7)} ms  (${sorted.length})`;
}

async function measure(label: string, served: ServedArchive): Promise<void> {
  const pid = served.process.pid!;
  // A little to search: 200 small games with player names.
  for (let i = 0; i < 200; i++) {
    await fetch(`${served.baseUrl}/games`, { method: 'POST', body: `1.0\n${i} Anna ${i}\n${i + 1} Boris ${i}\n-s-\nb7a6a8a7\n` }).then((r) => r.arrayBuffer());
  }
  const before = memoryOf(pid);
  const baseline = await probe(served.baseUrl, BASELINE_SECONDS);

  // The heavy clients run on a thread of their own, so their sending does not delay the prober.
  const clients = new Worker(new URL(import.meta.url), { workerData: { baseUrl: served.baseUrl } });
  await once(clients, 'online');
  const loaded = await probe(served.baseUrl, LOAD_SECONDS);
  clients.postMessage('stop');
  const [{ uploads, outcomes }] = (await once(clients, 'message')) as [{ uploads: number; outcomes: [string, number][] }];
  await clients.terminate();
  const after = memoryOf(pid);
  // Idle analysis threads end after 30 s (piscina idleTimeout), and their heaps with them.
  await sleep(40_000);
  const settled = memoryOf(pid);

  console.log(`load: ${label}${process.env.BENCH_LOAD_ENV ? ` with ${process.env.BENCH_LOAD_ENV}` : ''}`);
  console.log(`load:   /health  no load        ${summary(baseline.health)}`);
  console.log(`load:   /health  ${CLIENTS} heavy clients ${summary(loaded.health)}`);
  console.log(`load:   search   no load        ${summary(baseline.search)}`);
  console.log(`load:   search   ${CLIENTS} heavy clients ${summary(loaded.search)}`);
  console.log(`load:   ${uploads} heavy uploads answered: ${outcomes.map(([key, count]) => `${count}× ${key}`).join(', ')}`);
  console.log(`load:   RSS before ${before.rss.toFixed(0)} MB, right after the load ${after.rss.toFixed(0)} MB (peak ${after.peak.toFixed(0)} MB), 40 s later ${settled.rss.toFixed(0)} MB`);
}

/** BENCH_LOAD_ENV adds settings to the server, e.g. `ANALYSIS_THREADS=1 ANALYSIS_QUEUE=4`. */
function extraEnv(): Record<string, string> {
  return Object.fromEntries((process.env.BENCH_LOAD_ENV ?? '').split(/\s+/).filter(Boolean).map((pair) => pair.split('=', 2) as [string, string]));
}

export async function run(): Promise<void> {
  const embedded = await serveArchive(extraEnv());
  try {
    await measure('embedded PostgreSQL (PGlite)', embedded);
  } finally {
    await embedded.stop();
  }
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log('load: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too');
    return;
  }
  await withScratchDatabase(serverUrl, 'tabula_bench_load', async (url) => {
    const served = await serveArchive({ ...extraEnv(), DATABASE_URL: url });
    try {
      await measure('PostgreSQL server', served);
    } finally {
      await served.stop();
    }
  });
}

/** The load thread: CLIENTS uploaders in a loop until told to stop, then their tally. */
async function uploadUntilStopped(baseUrl: string): Promise<void> {
  const inputs = heavyInputs();
  const outcomes = new Map<string, number>();
  let stopping = false;
  let uploads = 0;
  parentPort!.once('message', () => (stopping = true));
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = client; !stopping; n += CLIENTS) {
        const kind = n % inputs.length;
        const { body, type } = inputs[kind](n);
        const answer = await fetch(`${baseUrl}/games`, { method: 'POST', body, headers: { 'Content-Type': type } });
        const text = await answer.text();
        const code = answer.status >= 400 ? (JSON.parse(text) as { code?: string }).code : (JSON.parse(text) as { status?: string }).status;
        const key = `${['vk', 'peg', 'gofans'][kind]} ${answer.status} ${code}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        uploads++;
      }
    }),
  );
  parentPort!.postMessage({ uploads, outcomes: [...outcomes] });
}

if (!isMainThread && (workerData as { baseUrl?: string })?.baseUrl) await uploadUntilStopped((workerData as { baseUrl: string }).baseUrl);
