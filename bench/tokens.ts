import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { AccountsRepository } from '../src/accounts/accounts.repository.js';
import { Credentials } from '../src/accounts/credentials.js';
import { AppConfig, loadConfig } from '../src/common/config.js';
import { percentile, redacted, startInProcess, unreachable, withScratchDatabase } from './served.js';

/**
 * What a database token costs a request (goal: its check ≤ 0.2 ms at the median, a cached hash
 * lookup rather than a database round trip). For the embedded database, and for a PostgreSQL server
 * (BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres when it answers; in a database
 * created and dropped here; BENCH_TOKENS_SERVER=false skips it), an archive with API_KEYS is started
 * in this process and measured, each figure beside its baseline in the same run, interleaved call by
 * call (the order turning each round) so that drift hits every column alike:
 *
 * - uploads of small distinct SGF games with a token of `games:write`, with an API key, and with no
 *   token at all on a second archive started without API_KEYS (open; on the server it shares the
 *   database);
 * - `GET /games?limit=20` with the token, with the key and without an Authorization header;
 * - `Credentials.resolve` itself, called in process: a cached token, the key, no header, and a token
 *   read from the database at every call (a second Credentials over the same repository, with
 *   TOKEN_CACHE_MS=0), the uncached baseline.
 *
 * Sizes: BENCH_TOKENS_UPLOADS and BENCH_TOKENS_SEARCHES requests per column, BENCH_TOKENS_CHECKS
 * calls per column.
 */
const UPLOADS = Number(process.env.BENCH_TOKENS_UPLOADS ?? 300);
const SEARCHES = Number(process.env.BENCH_TOKENS_SEARCHES ?? 300);
const CHECKS = Number(process.env.BENCH_TOKENS_CHECKS ?? 20_000);
/** Requests of each column sent first and not counted (connections, JIT, the token's first read). */
const WARM_UP = 20;
const GOAL_MS = 0.2;
const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const API_KEY = 'bench-tokens-admin-key-0123456789abcdef';
const SEARCH_PATH = '/games?limit=20';

export async function run(): Promise<void> {
  await benchTokens('embedded PostgreSQL (PGlite)', {});
  if (process.env.BENCH_TOKENS_SERVER === 'false') {
    console.log('tokens: BENCH_TOKENS_SERVER=false, the PostgreSQL server is skipped');
    return;
  }
  const serverUrl = process.env.BENCH_DATABASE_URL || DEFAULT_SERVER_URL;
  const refusal = await unreachable(serverUrl);
  if (refusal !== undefined) {
    console.log(`tokens: no PostgreSQL server at ${redacted(serverUrl)} (${refusal}); set BENCH_DATABASE_URL=postgres://… to measure one`);
    return;
  }
  await withScratchDatabase(serverUrl, 'tabula_bench_tokens', (url) => benchTokens('PostgreSQL server', { DATABASE_URL: url }));
}


/** Times per column, in ms. */
type Columns<K extends string> = Record<K, number[]>;

async function benchTokens(label: string, databaseSettings: Record<string, string>): Promise<void> {
  // Nothing is logged at LOG_LEVEL=error either way; JSON spares each of the four apps this process
  // starts a pretty-printer piped to stdout (whose listeners app.close() leaves behind).
  const settings = { ...databaseSettings, LOG_FORMAT: 'json' };
  const began = performance.now();
  const closed = await startInProcess({ ...settings, API_KEYS: API_KEY });
  let open: { app: INestApplication; baseUrl: string } | undefined;
  try {
    open = await startInProcess({ ...settings, OPEN_ARCHIVE: 'true' });
    const token = await createToken(closed.baseUrl);
    const withToken = { Authorization: `Bearer ${token}` };
    const withKey = { Authorization: `Bearer ${API_KEY}` };

    const upload = (baseUrl: string, headers: Record<string, string>, who: string) => async (index: number) => {
      const started = performance.now();
      const answer = await fetch(`${baseUrl}/games`, { method: 'POST', body: sgf(`${who}${index}`), headers: { ...headers, 'Content-Type': 'text/plain' } });
      await expectStatus(answer, 201, `upload ${who}${index}`);
      return performance.now() - started;
    };
    const uploads = await interleave(UPLOADS, {
      token: upload(closed.baseUrl, withToken, 'token'),
      key: upload(closed.baseUrl, withKey, 'key'),
      none: upload(open.baseUrl, {}, 'open'),
    });

    const search = (headers: Record<string, string>) => async () => {
      const started = performance.now();
      const answer = await fetch(`${closed.baseUrl}${SEARCH_PATH}`, { headers });
      await expectStatus(answer, 200, `GET ${SEARCH_PATH}`);
      return performance.now() - started;
    };
    const searches = await interleave(SEARCHES, { token: search(withToken), key: search(withKey), none: search({}) });

    const checks = await timeChecks(closed.app, settings, token);

    const http = (times: number[]) => `${ms(percentile(times, 50), 2)} / ${ms(percentile(times, 95), 2)}`;
    const check = (times: number[]) => `${ms(percentile(times, 50), 4)} / ${ms(percentile(times, 95), 4)}`;
    console.log(`tokens [${label}]: ${count(UPLOADS)} uploads, ${count(SEARCHES)} searches and ${count(CHECKS)} checks per column, interleaved; TOKEN_CACHE_MS=${closed.app.get(AppConfig).TOKEN_CACHE_MS}`);
    printTable([
      ['over HTTP, ms p50 / p95', 'database token', 'API key', 'no token'],
      ['upload (a small SGF game)', http(uploads.token), http(uploads.key), `${http(uploads.none)} (open archive)`],
      [`search GET ${SEARCH_PATH}`, http(searches.token), http(searches.key), http(searches.none)],
    ]);
    printTable([
      ['Credentials.resolve, ms p50 / p95', 'cached token', 'API key', 'no header', 'token, TOKEN_CACHE_MS=0'],
      ['one check', check(checks.cached), check(checks.key), check(checks.none), check(checks.uncached)],
    ]);
    const median = percentile(checks.cached, 50);
    const uploadCost = percentile(uploads.token, 50) - percentile(uploads.key, 50);
    const searchCost = percentile(searches.token, 50) - percentile(searches.none, 50);
    console.log(
      `  goal: a token's check ≤ ${GOAL_MS} ms at the median: ${median <= GOAL_MS ? 'met' : 'NOT met'} (${ms(median, 4)} ms cached, ` +
        `${ms(percentile(checks.uncached, 50), 3)} ms with a database round trip); token minus baseline at p50 over HTTP: ` +
        `upload ${signed(uploadCost)} ms (vs the key), search ${signed(searchCost)} ms (vs no header)`,
    );
    console.log(`  (${((performance.now() - began) / 1000).toFixed(1)} s)`);
  } finally {
    await open?.app.close();
    await closed.app.close();
  }
}

/** A token of `games:write` for the account `club-a`, made with the admin key over HTTP. */
async function createToken(baseUrl: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/tokens`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ account: 'club-a', name: 'bench', scopes: ['games:write'] }),
  });
  await expectStatus(answer, 201, 'POST /tokens', false);
  return ((await answer.json()) as { token: string }).token;
}

/** Reads an answer in full, or throws with its text when its status is not the one expected. */
async function expectStatus(answer: Response, status: number, what: string, drain = true): Promise<void> {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${await answer.text()}`);
  if (drain) await answer.arrayBuffer();
}

/** A small Go game, distinct for each `player` (an upload of a repeat is answered without being stored). */
function sgf(player: string): string {
  return `(;GM[1]FF[4]SZ[19]PB[${player}]PW[b];B[pd];W[dp])`;
}

/**
 * Runs each column's timed work `rounds` times (after {@link WARM_UP} uncounted rounds), one call
 * of every column per round, starting each round one column further on.
 */
async function interleave<K extends string>(rounds: number, work: Record<K, (index: number) => Promise<number>>): Promise<Columns<K>> {
  const keys = Object.keys(work) as K[];
  const times = Object.fromEntries(keys.map((key) => [key, [] as number[]])) as Columns<K>;
  for (let round = 0; round < WARM_UP + rounds; round++) {
    for (let k = 0; k < keys.length; k++) {
      const key = keys[(round + k) % keys.length];
      const elapsed = await work[key](round);
      if (round >= WARM_UP) times[key].push(elapsed);
    }
  }
  for (const key of keys) times[key].sort((a, b) => a - b);
  return times;
}

/**
 * `Credentials.resolve` of the archive (TOKEN_CACHE_MS as configured) for a cached token, the key
 * and no header, beside a Credentials over the same repository with TOKEN_CACHE_MS=0, which reads
 * the token's row at every call.
 */
async function timeChecks(app: INestApplication, settings: Record<string, string>, token: string) {
  const credentials = app.get(Credentials);
  const uncached = new Credentials(loadConfig({ DATA_DIR: 'memory://', ...settings, API_KEYS: API_KEY, TOKEN_CACHE_MS: '0' }), app.get(AccountsRepository));
  const query = new URLSearchParams('limit=20');
  const timed = (subject: Credentials, authorization: string | undefined, expected: string | null) => async () => {
    const started = performance.now();
    const credential = await subject.resolve(authorization, query);
    const elapsed = performance.now() - started;
    if (!('caller' in credential) || credential.caller.account !== expected) throw new Error(`the check of ${authorization ?? 'no header'} came to ${JSON.stringify(credential)}`);
    return elapsed;
  };
  return interleave(CHECKS, {
    cached: timed(credentials, `Bearer ${token}`, 'club-a'),
    key: timed(credentials, `Bearer ${API_KEY}`, 'admin'),
    none: timed(credentials, undefined, null),
    uncached: timed(uncached, `Bearer ${token}`, 'club-a'),
  });
}

function count(value: number): string {
  return value.toLocaleString('en');
}

function ms(value: number, digits: number): string {
  return value.toFixed(digits);
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;
}

/** Prints rows as columns, each as wide as its widest cell, indented under the bench's line. */
function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  for (const row of rows) console.log(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join('   ').trimEnd()}`);
}
