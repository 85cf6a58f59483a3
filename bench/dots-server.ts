import { once } from 'node:events';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { DotsClient } from '../test/support/dots-client.js';
import { freePort } from '../test/support/free-port.js';
import { percentile, serveArchive, sleep } from './served.js';

/**
 * The live Dots server must not slow the HTTP API: /health latency with no Dots load, then with
 * 1,000 idle TCP connections plus 100 two-player games played by scripted clients (a dot every
 * MOVE_PAUSE_MS per game, each answered and pushed as GSC + 204 to both players, the games written
 * to the database), printed side by side. The clients run on a thread of their own, so their work
 * does not delay the prober. The server is the built one in a process of its own (`npm start`).
 */
const LOAD_SECONDS = Number(process.env.BENCH_DOTS_SECONDS ?? 20);
const BASELINE_SECONDS = 5;
const IDLE_CONNECTIONS = 1000;
const GAMES = 100;
const MOVE_PAUSE_MS = 100;
const SIDE = 20;
const PROBE_PAUSE_MS = 20;

async function probe(baseUrl: string, seconds: number): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    await (await fetch(`${baseUrl}/health`)).arrayBuffer();
    times.push(performance.now() - started);
    await sleep(PROBE_PAUSE_MS);
  }
  return times;
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(sorted, 99).toFixed(1).padStart(7)} ms  max ${sorted[sorted.length - 1].toFixed(1).padStart(7)} ms  (${sorted.length})`;
}

export async function run(): Promise<void> {
  const dotsPort = await freePort();
  // Every client of this bench comes from one address: its per-address limits are raised to let them
  // all in (they are measured by test/e2e/dots-access.e2e.spec.ts), and hashes kept at the old cost,
  // which the figures of earlier runs were measured with.
  const served = await serveArchive({
    DOTS_PORT: String(dotsPort),
    DOTS_HOST: '127.0.0.1',
    DOTS_MAX_CONNECTIONS_PER_ADDRESS: '10000',
    DOTS_REGISTRATIONS_PER_ADDRESS: '100000',
    DOTS_LOGIN_TIMEOUT_MS: '3600000',
    DOTS_SCRYPT_COST: '16384',
  });
  try {
    const baseline = await probe(served.baseUrl, BASELINE_SECONDS);
    const clients = new Worker(new URL(import.meta.url), { workerData: { dotsPort } });
    const [ready] = (await once(clients, 'message')) as [{ setupMs: number }];
    const loaded = await probe(served.baseUrl, LOAD_SECONDS);
    clients.postMessage('stop');
    const [tally] = (await once(clients, 'message')) as [{ moves: number; refused: number; games: number; idleOpen: number }];
    await clients.terminate();
    console.log(`dots-server: setup (accounts with scrypt, ${IDLE_CONNECTIONS} idle connections, ${GAMES} games) ${(ready.setupMs / 1000).toFixed(1)} s`);
    console.log(`dots-server:   /health  no Dots load                      ${summary(baseline)}`);
    console.log(`dots-server:   /health  ${IDLE_CONNECTIONS} idle + ${GAMES} games playing      ${summary(loaded)}`);
    console.log(
      `dots-server:   ${tally.moves} dots played (${(tally.moves / LOAD_SECONDS).toFixed(0)}/s, ${tally.refused} refused as occupied or surrounded) in ${tally.games} games; ${tally.idleOpen} idle connections still open`,
    );
  } finally {
    await served.stop();
  }
}

/** The load thread: idle connections, then GAMES games of two players moving until told to stop. */
async function playUntilStopped(port: number): Promise<void> {
  const started = performance.now();
  const idle: DotsClient[] = [];
  for (let i = 0; i < IDLE_CONNECTIONS; i++) idle.push(await DotsClient.open(port));
  const stamp = Date.now().toString(36);
  const pairs = await Promise.all(
    Array.from({ length: GAMES }, async (_, g) => {
      const [a, b] = await Promise.all([0, 1].map(async (seat) => {
        const client = await DotsClient.open(port);
        const login = `b${stamp}g${g}p${seat}`;
        // 400 scrypt hashes queue on the thread pool: give them time.
        await client.reply(`REG ${login} password`, 120_000);
        await client.reply(`LOG ${login} password`, 120_000);
        return client;
      }));
      const gid = /GID (\d+)/.exec(await a.reply(`NEW 2 ${SIDE} ${SIDE} 90 0`))![1];
      await b.reply(`JOI ${gid}`);
      return [a, b] as const;
    }),
  );
  parentPort!.postMessage({ setupMs: performance.now() - started });
  let stopping = false;
  let moves = 0;
  let refused = 0;
  parentPort!.once('message', () => (stopping = true));
  const centre = [SIDE / 2 - 1, SIDE / 2];
  await Promise.all(
    pairs.map(async ([a, b], g) => {
      // The central four first (first dots must go there), then every other point in a fixed shuffled order.
      const points: [number, number][] = [];
      for (const y of centre) for (const x of centre) points.push([x, y]);
      const rest: [number, number][] = [];
      for (let y = 0; y < SIDE; y++) for (let x = 0; x < SIDE; x++) if (!(centre.includes(x) && centre.includes(y))) rest.push([x, y]);
      for (let i = rest.length - 1; i > 0; i--) {
        const j = (i * 7919 + g * 31) % (i + 1);
        [rest[i], rest[j]] = [rest[j], rest[i]];
      }
      points.push(...rest);
      let turn = 0;
      let next = 0;
      while (!stopping && next < points.length) {
        const [x, y] = points[next++];
        const answer = (await [a, b][turn].reply(`TRN ${x} ${y}`)).split('\n')[0];
        if (answer === '200') {
          moves++;
          turn = 1 - turn;
          await sleep(MOVE_PAUSE_MS);
        } else if (answer.startsWith('408')) {
          refused++;
        } else {
          break;
        }
      }
    }),
  );
  parentPort!.postMessage({ moves, refused, games: pairs.length, idleOpen: idle.filter((c) => !c.closed).length });
  for (const client of [...idle, ...pairs.flat()]) client.close();
}

if (!isMainThread && (workerData as { dotsPort?: number })?.dotsPort) await playUntilStopped((workerData as { dotsPort: number }).dotsPort);
