import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { memoryOf, percentile, redacted, serveArchive, ServedArchive, sleep, unreachable, withScratchDatabase } from './served.js';
import { seededRandom } from '../test/support/seeded-random.js';

/**
 * Fair under load: does one club's trickle of uploads still get through while anonymous clients
 * hammer the expensive reads? The built server runs in a process of its own (its RSS read from
 * /proc), closed with API_KEYS (the club's key), RATE_LIMIT_EXEMPT_LOOPBACK=false and every other
 * limit at its default, in the environment `npm start` gives it. It is seeded with GAMES made-up
 * Go games (legal, without captures, 60–150 moves), uploaded with the key. Then:
 *
 * 1. idle: the club uploads IDLE_UPLOADS small distinct SGF games, one every 2 s, while a prober
 *    asks for /health every 100 ms: the baseline, in the same run;
 * 2. load, for BENCH_FAIR_SECONDS (default 40): six anonymous clients, each bound to a loopback
 *    address of its own (127.0.0.2 … 127.0.0.7, so each is a client of its own to the limits),
 *    loop over 2048 px PNGs of the seeded games at a random ply (a new ETag nearly every time) and
 *    free 4×4 pattern searches, each on a new connection dropped 200–500 ms after it was sent
 *    unless answered by then, without any pause; meanwhile the club uploads every 2 s and the
 *    prober goes on; the server's RSS is read every second;
 * 3. after: the load stopped, 30 s of quiet, and the RSS again.
 *
 * Goals: upload p95 under load ≤ max(4 × the idle median, 1500 ms); every upload stored; peak RSS
 * < 1.5 GB; RSS 30 s after the load within 300 MB of before it. On the embedded database, and on
 * the PostgreSQL server at BENCH_DATABASE_URL (else postgres://postgres@127.0.0.1:5432/postgres
 * when it answers) in a database made and dropped here; BENCH_FAIR_SERVER=false skips the server.
 */
const LOAD_SECONDS = Number(process.env.BENCH_FAIR_SECONDS ?? 40);
const GAMES = 200;
const SEED_CLIENTS = 4;
const IDLE_UPLOADS = 10;
const UPLOAD_EVERY_MS = 2000;
const PROBE_EVERY_MS = 100;
const RSS_EVERY_MS = 1000;
const SETTLE_MS = 30_000;
const ABUSIVE_ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
/** An abusive request still unanswered this long after it was sent is dropped (its connection destroyed). */
const DROP_AFTER_MS = { min: 200, max: 500 };
const PNG_SIZE = 2048;
const UPLOAD_GOAL = { timesIdleMedian: 4, floorMs: 1500 };
const PEAK_GOAL_MB = 1.5 * 1024;
const SETTLED_GOAL_MB = 300;
const API_KEY = 'bench-fair-club-key-5f1c0e7a9b2d4c68';
const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const SGF_TYPE = 'application/x-go-sgf';

// ---------------------------------------------------------------------------------------------
// Made-up Go games

const SIDE = 19;
const LETTERS = 'abcdefghijklmnopqrs';

const random = seededRandom;

function neighbours(point: number): number[] {
  const x = point % SIDE;
  const y = (point - x) / SIDE;
  const around: number[] = [];
  if (x > 0) around.push(point - 1);
  if (x < SIDE - 1) around.push(point + 1);
  if (y > 0) around.push(point - SIDE);
  if (y < SIDE - 1) around.push(point + SIDE);
  return around;
}

/** Whether the group holding `point` touches an empty point. */
function breathes(board: Uint8Array, point: number): boolean {
  const colour = board[point];
  const seen = new Set([point]);
  const todo = [point];
  while (todo.length > 0) {
    for (const next of neighbours(todo.pop()!)) {
      if (board[next] === 0) return true;
      if (board[next] === colour && !seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
    }
  }
  return false;
}

/**
 * The SGF points of a legal game of `moves` moves on 19×19, black first. No move captures or is
 * suicide (such a move is never chosen), so no ko can arise and every move is legal by any rules.
 */
function madeUpMoves(seed: number, moves: number): string[] {
  const next = random(seed);
  const board = new Uint8Array(SIDE * SIDE);
  const played: string[] = [];
  for (let move = 0; move < moves; move++) {
    const colour = move % 2 === 0 ? 1 : 2;
    for (let attempt = 0; ; attempt++) {
      if (attempt === 1000) throw new Error(`game ${seed}: no quiet move found at move ${move + 1}`);
      const point = Math.floor(next() * SIDE * SIDE);
      if (board[point] !== 0) continue;
      board[point] = colour;
      const quiet = breathes(board, point) && neighbours(point).every((other) => board[other] === 0 || board[other] === colour || breathes(board, other));
      if (!quiet) {
        board[point] = 0;
        continue;
      }
      played.push(`${LETTERS[point % SIDE]}${LETTERS[Math.floor(point / SIDE)]}`);
      break;
    }
  }
  return played;
}

function sgf(seed: number, moves: number, black: string, white: string): string {
  const body = madeUpMoves(seed, moves)
    .map((point, move) => `;${move % 2 === 0 ? 'B' : 'W'}[${point}]`)
    .join('');
  return `(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[6.5]PB[${black}]PW[${white}]RE[?]${body})\n`;
}

// ---------------------------------------------------------------------------------------------
// The measured run

interface SeededGame {
  readonly id: number;
  readonly moves: number;
}

interface Upload {
  readonly ms: number;
  /** `stored`, or the refusal as `status code`. */
  readonly outcome: string;
}

/** What the abusive clients were answered: `png|pattern`, `200|429|503|dropped|…`, problem code, count. */
type Tally = [kind: string, outcome: string, code: string, count: number][];

interface Figures {
  readonly label: string;
  readonly seedSeconds: number;
  readonly idleUploads: Upload[];
  readonly loadUploads: Upload[];
  readonly idleHealth: Probe[];
  readonly loadHealth: Probe[];
  readonly rssBefore: number;
  readonly rssSampledPeak: number;
  readonly rssPeak: number;
  readonly rssRightAfter: number;
  readonly rssSettled: number;
  readonly abusive: Tally;
}

interface Probe {
  readonly ms: number;
  readonly status: number;
}

export async function run(): Promise<void> {
  const figures: Figures[] = [];
  try {
    figures.push(await measure('embedded PostgreSQL (PGlite)', {}));
    if (process.env.BENCH_FAIR_SERVER === 'false') {
      console.log('fair: BENCH_FAIR_SERVER=false, the PostgreSQL server is skipped');
      return;
    }
    const serverUrl = process.env.BENCH_DATABASE_URL || DEFAULT_SERVER_URL;
    const refusal = await unreachable(serverUrl);
    if (refusal !== undefined) {
      console.log(`fair: no PostgreSQL server at ${redacted(serverUrl)} (${refusal}); set BENCH_DATABASE_URL=postgres://… to measure one`);
      return;
    }
    figures.push(await withScratchDatabase(serverUrl, 'tabula_bench_fair', (url) => measure('PostgreSQL server', { DATABASE_URL: url })));
  } finally {
    if (figures.length > 0) print(figures);
  }
}

async function measure(label: string, databaseSettings: Record<string, string>): Promise<Figures> {
  const served = await serveArchive({ ...startSettings(), ...databaseSettings, API_KEYS: API_KEY, RATE_LIMIT_EXEMPT_LOOPBACK: 'false' });
  let abusers: Worker | undefined;
  let sampler: NodeJS.Timeout | undefined;
  const probers: { stop(): Promise<Probe[]> }[] = [];
  try {
    const pid = served.process.pid!;
    const seedStarted = performance.now();
    const games = await seed(served.baseUrl);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    let uploadNumber = 0;
    const nextUpload = () => uploadNumber++;

    // 1. Idle: the club and the prober alone.
    const idleProber = prober(served.baseUrl);
    probers.push(idleProber);
    const idleUploads = await uploadEvery(served.baseUrl, IDLE_UPLOADS, nextUpload);
    const idleHealth = await idleProber.stop();
    const rssBefore = memoryOf(pid).rss;

    // 2. Load: the abusive clients on a thread of their own, so their sending does not hold up the club or the prober.
    abusers = new Worker(new URL(import.meta.url), { workerData: { fairAbusers: { baseUrl: served.baseUrl, games } } });
    await once(abusers, 'online');
    let rssSampledPeak = rssBefore;
    sampler = setInterval(() => (rssSampledPeak = Math.max(rssSampledPeak, memoryOf(pid).rss)), RSS_EVERY_MS);
    const loadProber = prober(served.baseUrl);
    probers.push(loadProber);
    const loadUploads = await uploadEvery(served.baseUrl, Math.ceil((LOAD_SECONDS * 1000) / UPLOAD_EVERY_MS), nextUpload);
    abusers.postMessage('stop');
    const [abusive] = (await once(abusers, 'message')) as [Tally];
    await abusers.terminate();
    const loadHealth = await loadProber.stop();
    clearInterval(sampler);
    const rightAfter = memoryOf(pid);

    // 3. After: quiet.
    await sleep(SETTLE_MS);
    const rssSettled = memoryOf(pid).rss;
    return {
      label,
      seedSeconds,
      idleUploads,
      loadUploads,
      idleHealth,
      loadHealth,
      rssBefore,
      rssSampledPeak: Math.max(rssSampledPeak, rightAfter.rss),
      rssPeak: rightAfter.peak,
      rssRightAfter: rightAfter.rss,
      rssSettled,
      abusive,
    };
  } finally {
    clearInterval(sampler);
    await abusers?.terminate();
    for (const running of probers) await running.stop();
    await served.stop();
  }
}

/** GAMES made-up games uploaded with the key, a few at a time; their ids and lengths. */
async function seed(baseUrl: string): Promise<SeededGame[]> {
  const games: SeededGame[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: SEED_CLIENTS }, async () => {
      while (next < GAMES) {
        const index = next++;
        const moves = 60 + Math.floor(random(index + 1)() * 91);
        const answer = await fetch(`${baseUrl}/uploads?filename=fair-seed-${index}.sgf`, {
          method: 'POST',
          body: sgf(index + 1, moves, `Seed Black ${index}`, `Seed White ${index}`),
          headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': SGF_TYPE },
        });
        const text = await answer.text();
        if (answer.status !== 201) throw new Error(`seeding game ${index} answered ${answer.status}: ${text}`);
        const [game] = (JSON.parse(text) as { games: { gameId: number | null; outcome: string }[] }).games;
        if (game?.outcome !== 'indexed' || game.gameId === null) throw new Error(`seeded game ${index} was not indexed: ${text}`);
        games.push({ id: game.gameId, moves });
      }
    }),
  );
  return games;
}

/**
 * The club: `count` uploads of a small distinct game, one sent every UPLOAD_EVERY_MS whether or
 * not the one before has been answered; their times and outcomes once all are answered.
 */
async function uploadEvery(baseUrl: string, count: number, number: () => number): Promise<Upload[]> {
  const sent: Promise<Upload>[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    await sleep(Math.max(0, started + i * UPLOAD_EVERY_MS - performance.now()));
    sent.push(uploadOne(baseUrl, number()));
  }
  return Promise.all(sent);
}

async function uploadOne(baseUrl: string, n: number): Promise<Upload> {
  const body = sgf(100_000 + n, 30 + (n % 20), `Club Black ${n}`, `Club White ${n}`);
  const started = performance.now();
  try {
    const answer = await fetch(`${baseUrl}/uploads?filename=club-${n}.sgf`, { method: 'POST', body, headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': SGF_TYPE } });
    const text = await answer.text();
    const ms = performance.now() - started;
    return { ms, outcome: answer.status === 201 ? 'stored' : `${answer.status} ${problemCode(text)}` };
  } catch (error) {
    return { ms: performance.now() - started, outcome: `failed ${(error as Error).message}` };
  }
}

/** GET /health every PROBE_EVERY_MS (the next one sent when the last is answered, if later) until stopped. */
function prober(baseUrl: string): { stop(): Promise<Probe[]> } {
  const probes: Probe[] = [];
  let stopping = false;
  const done = (async () => {
    while (!stopping) {
      const started = performance.now();
      let status = 0;
      try {
        const answer = await fetch(`${baseUrl}/health`);
        await answer.arrayBuffer();
        status = answer.status;
      } catch {
        status = 0;
      }
      const ms = performance.now() - started;
      probes.push({ ms, status });
      await sleep(Math.max(0, PROBE_EVERY_MS - ms));
    }
  })();
  return {
    async stop() {
      stopping = true;
      await done;
      return probes;
    },
  };
}

/** The `code` of a problem+json answer, or `-`. */
function problemCode(text: string): string {
  try {
    return String((JSON.parse(text) as { code?: unknown }).code ?? '-');
  } catch {
    return '-';
  }
}

/** The environment package.json's start script sets before `node`: the server as `npm start` runs it. */
function startSettings(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
  const assignments = /^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)node\s/.exec(manifest.scripts.start)?.[1] ?? '';
  return Object.fromEntries(
    assignments
      .split(/\s+/)
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

// ---------------------------------------------------------------------------------------------
// The printout

function print(figures: readonly Figures[]): void {
  const served = `the built server, ${startSettingsText()}API_KEYS set, RATE_LIMIT_EXEMPT_LOOPBACK=false, default limits`;
  console.log(
    `fair: ${served}; ${GAMES} made-up Go games; ${ABUSIVE_ADDRESSES.length} anonymous clients (${ABUSIVE_ADDRESSES[0]} … ${ABUSIVE_ADDRESSES.at(-1)}) ` +
      `looping ${PNG_SIZE} px PNGs and free 4×4 pattern searches, each dropped ${DROP_AFTER_MS.min}–${DROP_AFTER_MS.max} ms after it was sent unless answered, ` +
      `for ${LOAD_SECONDS} s, while the club uploads a small SGF every ${UPLOAD_EVERY_MS / 1000} s with its key and /health is probed every ${PROBE_EVERY_MS} ms`,
  );
  const rows: string[][] = [['', ...figures.map((f) => f.label)]];
  const row = (label: string, cell: (f: Figures) => string) => rows.push([label, ...figures.map(cell)]);
  const gap = () => rows.push(['']);

  row('seeding (uploads of the games)', (f) => `${f.seedSeconds.toFixed(1)} s`);
  gap();
  row('uploads idle: sent / stored / refused', (f) => counts(f.idleUploads));
  row('uploads under load: sent / stored / refused', (f) => counts(f.loadUploads));
  row('  refused under load, by status and code', (f) => refusals(f.loadUploads));
  row('upload ms p50 / p95, idle', (f) => times(f.idleUploads.map((u) => u.ms), 95));
  row('upload ms p50 / p95, under load', (f) => times(f.loadUploads.map((u) => u.ms), 95));
  row('  goal: p95 ≤ max(4 × idle median, 1500 ms)', (f) => {
    const { limit, p95 } = uploadGoal(f);
    return `${p95 <= limit ? 'met' : 'not met'} (${p95.toFixed(0)} against ${limit.toFixed(0)} ms)`;
  });
  row('  goal: every upload under load stored', (f) => (stored(f.loadUploads) === f.loadUploads.length ? 'met' : 'not met'));
  gap();
  row('/health ms p50 / p99, idle', (f) => healthTimes(f.idleHealth));
  row('/health ms p50 / p99, under load', (f) => healthTimes(f.loadHealth));
  gap();
  row('RSS MB before / peak / 30 s after', (f) => `${mb(f.rssBefore)} / ${mb(f.rssPeak)} / ${mb(f.rssSettled)}`);
  row('  sampled peak, right after the load', (f) => `${mb(f.rssSampledPeak)}, ${mb(f.rssRightAfter)}`);
  row(`  goal: peak < ${mb(PEAK_GOAL_MB)} MB`, (f) => (f.rssPeak < PEAK_GOAL_MB ? 'met' : 'not met'));
  row(`  goal: 30 s after within ${SETTLED_GOAL_MB} MB of before`, (f) => `${f.rssSettled - f.rssBefore <= SETTLED_GOAL_MB ? 'met' : 'not met'} (${signed(f.rssSettled - f.rssBefore)} MB)`);
  gap();
  for (const kind of ['png', 'pattern', 'all'] as const) {
    const label = { png: `abusive ${PNG_SIZE} px PNGs`, pattern: 'abusive pattern searches', all: 'abusive requests, all' }[kind];
    row(`${label}: 200 / 429 / 503 / dropped / other`, (f) => outcomes(f.abusive, kind));
  }
  row('  answer codes', (f) => codes(f.abusive));
  printTable(rows);
}

function startSettingsText(): string {
  const settings = Object.entries(startSettings());
  return settings.length === 0 ? '' : `as npm start runs it (${settings.map(([name, value]) => `${name}=${value}`).join(' ')}), `;
}

function uploadGoal(f: Figures): { limit: number; p95: number } {
  const idleMedian = percentile(sorted(f.idleUploads.map((u) => u.ms)), 50);
  return { limit: Math.max(UPLOAD_GOAL.timesIdleMedian * idleMedian, UPLOAD_GOAL.floorMs), p95: percentile(sorted(f.loadUploads.map((u) => u.ms)), 95) };
}

const stored = (uploads: readonly Upload[]) => uploads.filter((u) => u.outcome === 'stored').length;

function counts(uploads: readonly Upload[]): string {
  return `${uploads.length} / ${stored(uploads)} / ${uploads.length - stored(uploads)}`;
}

function refusals(uploads: readonly Upload[]): string {
  const by = new Map<string, number>();
  for (const { outcome } of uploads) if (outcome !== 'stored') by.set(outcome, (by.get(outcome) ?? 0) + 1);
  return by.size === 0 ? 'none' : [...by].map(([outcome, count]) => `${count}× ${outcome}`).join(', ');
}

function times(values: readonly number[], high: number): string {
  const ordered = sorted(values);
  return `${percentile(ordered, 50).toFixed(0)} / ${percentile(ordered, high).toFixed(0)} (${ordered.length})`;
}

function healthTimes(probes: readonly Probe[]): string {
  const failed = probes.filter((p) => p.status !== 200).length;
  return `${times(probes.map((p) => p.ms), 99)}${failed > 0 ? `, ${failed} not 200` : ''}`;
}

function outcomes(tally: Tally, kind: 'png' | 'pattern' | 'all'): string {
  const count = (outcome: string | undefined) =>
    tally.filter(([k, o]) => (kind === 'all' || k === kind) && (outcome === undefined ? !['200', '429', '503', 'dropped'].includes(o) : o === outcome)).reduce((sum, [, , , n]) => sum + n, 0);
  return `${['200', '429', '503', 'dropped'].map(count).join(' / ')} / ${count(undefined)}`;
}

function codes(tally: Tally): string {
  const by = new Map<string, number>();
  for (const [, outcome, code, count] of tally) if (outcome !== '200' && outcome !== 'dropped') by.set(`${outcome} ${code}`, (by.get(`${outcome} ${code}`) ?? 0) + count);
  return [...by].sort((a, b) => b[1] - a[1]).map(([key, count]) => `${count}× ${key}`).join(', ') || 'none';
}

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const mb = (value: number) => value.toFixed(0);
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(0)}`;

/** Prints rows as columns, each as wide as its widest cell, indented under the bench's line. */
function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  for (const row of rows) console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join('   ').trimEnd()}`);
}

// ---------------------------------------------------------------------------------------------
// The abusive clients (a worker thread)

interface AbuserData {
  readonly baseUrl: string;
  readonly games: readonly SeededGame[];
}

/** A 4×4 pattern of stones and empty points, with at least one stone. */
function freePattern(next: () => number): string[] {
  for (;;) {
    const rows = Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => 'XO..'[Math.floor(next() * 4)]).join(''));
    if (rows.some((r) => /[XO]/.test(r))) return rows;
  }
}

/**
 * One request on a connection of its own from `localAddress`, destroyed `dropAfterMs` after it was
 * sent unless its answer has begun by then: the status (with the problem code of a refusal), or
 * `dropped`, or `error`.
 */
function dropAfter(url: URL, method: string, body: string | undefined, localAddress: string, dropAfterMs: number): Promise<{ outcome: string; code: string }> {
  return new Promise((resolve) => {
    let settled = false;
    let status: number | undefined;
    const chunks: Buffer[] = [];
    const settle = (outcome: string, code = '-') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ outcome, code });
    };
    const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) };
    const sent = httpRequest({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, localAddress, agent: false, headers }, (answer) => {
      status = answer.statusCode ?? 0;
      answer.on('data', (chunk: Buffer) => {
        if (status !== 200) chunks.push(chunk);
      });
      answer.on('end', () => settle(String(status), status === 200 ? '-' : problemCode(Buffer.concat(chunks).toString('utf8'))));
      answer.on('error', () => settle(String(status)));
    });
    sent.on('error', (error: NodeJS.ErrnoException) => settle(status === undefined ? `error ${error.code ?? error.message}` : String(status)));
    const timer = setTimeout(() => {
      settle(status === undefined ? 'dropped' : String(status));
      sent.destroy();
    }, dropAfterMs);
    sent.end(body);
  });
}

async function abuseUntilStopped({ baseUrl, games }: AbuserData): Promise<void> {
  let stopping = false;
  parentPort!.once('message', () => (stopping = true));
  const tally = new Map<string, number>();
  await Promise.all(
    ABUSIVE_ADDRESSES.map(async (localAddress, client) => {
      const next = random(7_000 + client);
      for (let n = client; !stopping; n++) {
        const dropAfterMs = DROP_AFTER_MS.min + next() * (DROP_AFTER_MS.max - DROP_AFTER_MS.min);
        let kind: string;
        let answered: { outcome: string; code: string };
        if (n % 2 === 0) {
          kind = 'png';
          const game = games[Math.floor(next() * games.length)];
          const ply = Math.floor(next() * (game.moves + 1));
          answered = await dropAfter(new URL(`${baseUrl}/games/${game.id}/board.svg?format=png&size=${PNG_SIZE}&ply=${ply}`), 'GET', undefined, localAddress, dropAfterMs);
        } else {
          kind = 'pattern';
          const body = JSON.stringify({ family: 'go', pattern: freePattern(next), anchor: 'anywhere' });
          answered = await dropAfter(new URL(`${baseUrl}/patterns/games`), 'POST', body, localAddress, dropAfterMs);
        }
        const key = JSON.stringify([kind, answered.outcome, answered.code]);
        tally.set(key, (tally.get(key) ?? 0) + 1);
      }
    }),
  );
  parentPort!.postMessage([...tally].map(([key, count]) => [...(JSON.parse(key) as [string, string, string]), count]));
}

if (!isMainThread && (workerData as { fairAbusers?: AbuserData } | undefined)?.fairAbusers) await abuseUntilStopped((workerData as { fairAbusers: AbuserData }).fairAbusers);
