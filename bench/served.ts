import pg from 'pg';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '../src/app.factory.js';
import { loadConfig } from '../src/common/config.js';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from '../test/support/scratch-database.js';
import { freePort } from '../test/support/free-port.js';

/** The built server (`node dist/src/main.js`, what `npm start` runs) in a process of its own, for benchmarks. */
export interface ServedArchive {
  readonly baseUrl: string;
  readonly process: ChildProcess;
  /** Milliseconds from spawn to the first healthy answer. */
  readonly startMs: number;
  stop(): Promise<void>;
}

export interface Memory {
  /** VmRSS in MB. */
  readonly rss: number;
  /** VmHWM, the peak RSS so far, in MB. */
  readonly peak: number;
}

const MAIN = new URL('../src/main.js', import.meta.url).pathname;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Starts the built server on a fresh temporary DATA_DIR (embedded database) unless `env` names a
 * DATABASE_URL, and waits until it answers /health. Loopback is exempt from the rate limits.
 */
export async function serveArchive(env: Record<string, string> = {}, nodeArgs: readonly string[] = []): Promise<ServedArchive> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tabula-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', RATE_LIMIT_EXEMPT_LOOPBACK: 'true', DOTS_PORT: '0', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const healthy = await fetch(`${baseUrl}/health`).then((answer) => answer.status === 200, () => false);
    if (healthy) break;
    await sleep(100);
  }
  return {
    baseUrl,
    process: child,
    startMs: performance.now() - started,
    async stop() {
      await stopProcess(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `use` on a database of its own on the server named by a URL, dropped afterwards. */
export async function withScratchDatabase<T>(serverUrl: string, prefix: string, use: (url: string) => Promise<T>): Promise<T> {
  const database = await createScratchDatabase(serverUrl, prefix);
  try {
    return await use(database.url);
  } finally {
    // BENCH_KEEP_DATABASE=true: left for a look at its plans afterwards (drop it by hand).
    if (process.env.BENCH_KEEP_DATABASE === 'true') console.log(`bench: kept ${database.url}`);
    else await database.drop();
  }
}

/**
 * Runs a bench's `measure` on the embedded database (in a data directory of its own, removed after)
 * unless `embedded` is false, then on a scratch database of the server BENCH_DATABASE_URL names,
 * or says how to measure one.
 */
export async function onEachDatabase(bench: string, measure: (label: string, settings: Record<string, string>) => Promise<void>, embedded = true): Promise<void> {
  if (embedded) {
    const dataDir = mkdtempSync(join(tmpdir(), `tabula-bench-${bench}-`));
    try {
      await measure('embedded PostgreSQL (PGlite)', { DATA_DIR: dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log(`${bench}: set BENCH_DATABASE_URL=postgres://… to measure a PostgreSQL server too`);
    return;
  }
  // A database's name takes letters, digits and `_` (`positions-tree` → `tabula_bench_positions_tree`).
  await withScratchDatabase(serverUrl, `tabula_bench_${bench.replace(/\W/g, '_')}`, (url) => measure('PostgreSQL server', { DATABASE_URL: url, DATABASE_POOL_SIZE: '4' }));
}

/** Milliseconds a GET of `path` took to answer in full; any status but 200 is an error saying the answer. */
export async function timedGet(baseUrl: string, path: string): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${baseUrl}${path}`);
  if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
  await answer.arrayBuffer();
  return performance.now() - started;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The archive started in this process on a free loopback port (in-memory embedded database unless `settings` say otherwise). */
export async function startInProcess(settings: Record<string, string>): Promise<{ app: INestApplication; baseUrl: string }> {
  const app = await createApp(loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'error', RATE_LIMIT_EXEMPT_LOOPBACK: 'true', DOTS_PORT: '0', ...settings }));
  await app.listen(0, '127.0.0.1');
  return { app, baseUrl: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
}

/** Why the server cannot be used, or undefined when it answers. */
export async function unreachable(serverUrl: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
