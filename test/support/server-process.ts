import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { createScratchDatabase } from './scratch-database.js';

/**
 * The built server (`node dist/src/main.js`, what `npm start` runs; `npm test` builds it first) as a
 * separate process, to be killed and restarted on the same data: on the embedded database in a temporary
 * DATA_DIR, or — when TABULA_TEST_DATABASE_URL names a server — on a PostgreSQL database created here
 * and dropped at the end.
 */
const MAIN = new URL('../../dist/src/main.js', import.meta.url).pathname;
export const serverUrl = process.env.TABULA_TEST_DATABASE_URL;

export interface Ending {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A clean shutdown on SIGTERM: exit code 0, or SIGTERM raised again once the shutdown hooks have run. */
export const cleanly = (ending: Ending | undefined) => ending !== undefined && (ending.code === 0 || (ending.code === null && ending.signal === 'SIGTERM'));

export interface RunningServer {
  readonly process: ChildProcess;
  readonly baseUrl: string;
  output(): string;
  /** Resolves with how the process ended. */
  readonly exited: Promise<Ending>;
}

/** Spawns the server with `settings` (over a clean environment) without waiting for it. */
export function spawnServer(settings: Record<string, string>, port = 0): Omit<RunningServer, 'baseUrl'> {
  const env: Record<string, string | undefined> = { ...process.env, DATABASE_URL: undefined, DATA_DIR: undefined, API_KEYS: undefined };
  const child = spawn(process.execPath, [MAIN], {
    // DOTS_PORT 0 unless a test names one: two suites spawning servers at once both took 7777, and one failed (EADDRINUSE).
    env: { ...env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'error', RATE_LIMIT_EXEMPT_LOOPBACK: 'true', DOTS_PORT: '0', ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<Ending>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { process: child, output: () => output, exited };
}

/**
 * Spawns the server (on `options.port`, or a free one) and waits until /health answers 200.
 * `options.watch` is told the server's address before the first request (the e2e tests' check of
 * every answer against the OpenAPI spec).
 */
export async function startServer(settings: Record<string, string>, options: { port?: number; watch?: (baseUrl: string) => void } = {}): Promise<RunningServer> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does)`);
  const port = options.port ?? (await freePort());
  const server = spawnServer(settings, port);
  const baseUrl = `http://127.0.0.1:${port}`;
  options.watch?.(baseUrl);
  let ending: Ending | undefined;
  void server.exited.then((how) => (ending = how));
  for (;;) {
    if (ending) throw new Error(`the server exited (${ending.code ?? ending.signal}) before answering:\n${server.output()}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).status === 200) return { ...server, baseUrl };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function stop(server: RunningServer | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<Ending | undefined> {
  if (!server) return undefined;
  if (server.process.exitCode === null && server.process.signalCode === null) server.process.kill(signal);
  return server.exited;
}

/** Where the data lives: a DATA_DIR, or a database of its own on the PostgreSQL server. */
export async function createStore(): Promise<{ settings: Record<string, string>; remove(): Promise<void> }> {
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabula-server-'));
    return { settings: { DATA_DIR: dataDir }, remove: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const database = await createScratchDatabase(serverUrl, 'tabula_test_server');
  return { settings: { DATABASE_URL: database.url }, remove: () => database.drop() };
}
