import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';

/** Inodes of the TCP sockets this process is listening on (state 0A in /proc/net/tcp*). */
function listeningTcpInodesOfThisProcess(): string[] {
  const ours = new Set(
    readdirSync('/proc/self/fd')
      .map((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      })
      .flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.slice(1) ?? []),
  );
  return ['/proc/net/tcp', '/proc/net/tcp6']
    .filter((file) => existsSync(file))
    .flatMap((file) => readFileSync(file, 'utf8').trim().split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === '0A' && ours.has(fields[9]))
    .map((fields) => fields[9]);
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('EmbeddedPostgres', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tabula-embedded-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('serves DATA_DIR on an owner-only Unix socket inside DATA_DIR, with fsync on, and opens no TCP port', async () => {
    const dataDir = join(root, 'data');
    // A socket file left by a process that was killed must not stop the start, nor a data directory
    // whose initialisation was interrupted (it is built beside pgdata and renamed into place).
    mkdirSync(join(dataDir, 'socket'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'socket', '.s.PGSQL.5432'), '');
    mkdirSync(join(dataDir, 'pgdata'));
    mkdirSync(join(dataDir, 'pgdata.initdb'));
    writeFileSync(join(dataDir, 'pgdata.initdb', 'half-written'), '');
    const listenersBefore = listeningTcpInodesOfThisProcess();

    const embedded = await EmbeddedPostgres.start(dataDir);
    try {
      const socketDir = join(dataDir, 'socket');
      expect(embedded.socketPath).toBe(join(socketDir, '.s.PGSQL.5432'));
      expect(lstatSync(socketDir).mode & 0o777).toBe(0o700);
      const socket = lstatSync(embedded.socketPath);
      expect(socket.isSocket()).toBe(true);
      expect(socket.mode & 0o777).toBe(0o600);

      // The URL names no TCP host: pg reaches the socket through host=<directory>.
      const url = new URL(embedded.url);
      expect(url.hostname).toBe('');
      expect(url.searchParams.get('host')).toBe(socketDir);
      expect(listeningTcpInodesOfThisProcess()).toEqual(listenersBefore);

      const settings = await query<{ name: string; setting: string }>(
        embedded.url,
        `SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'wal_sync_method') ORDER BY name`,
      );
      expect(settings).toEqual([
        { name: 'fsync', setting: 'on' },
        { name: 'wal_sync_method', setting: 'fsync' },
      ]);

      // A commit reaches Node's fsync (NODEFS alone has none, and every fsync would be a no-op).
      const before = (await embedded.syncs())!;
      await embedded.whenNoConnections();
      await query(embedded.url, `CREATE TABLE durable (id int PRIMARY KEY); INSERT INTO durable VALUES (1)`);
      expect(await embedded.syncs()).toBeGreaterThan(before);
    } finally {
      await embedded.whenNoConnections();
      await embedded.stop();
    }
    expect(existsSync(join(dataDir, 'socket', '.s.PGSQL.5432'))).toBe(false);
    expect(existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(readdirSync(dataDir).sort()).toEqual(['pgdata', 'socket']);
  });

  it('refuses a pgdata folder that holds files but no PostgreSQL data directory, and leaves it alone', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(join(dataDir, 'pgdata'), { recursive: true });
    writeFileSync(join(dataDir, 'pgdata', 'notes.txt'), 'mine');
    await expect(EmbeddedPostgres.start(dataDir)).rejects.toThrow(`${join(dataDir, 'pgdata')} is not empty but holds no PostgreSQL data directory`);
    expect(readdirSync(join(dataDir, 'pgdata'))).toEqual(['notes.txt']);
  });

  it('puts the socket in a fresh private temporary directory when DATA_DIR is too long for a socket path, and removes it on stop', async () => {
    let dataDir = root;
    while (Buffer.byteLength(join(dataDir, 'socket', '.s.PGSQL.5432')) <= 108) dataDir = join(dataDir, 'a-rather-long-folder-name');
    const embedded = await EmbeddedPostgres.start(dataDir);
    let socketDir: string;
    try {
      socketDir = dirname(embedded.socketPath);
      expect(dirname(socketDir)).toBe(tmpdir());
      expect(lstatSync(socketDir).mode & 0o777).toBe(0o700);
      expect(lstatSync(embedded.socketPath).mode & 0o777).toBe(0o600);
      expect(existsSync(join(dataDir, 'socket'))).toBe(false);
      expect(await query<{ one: number }>(embedded.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await embedded.whenNoConnections();
      await embedded.stop();
    }
    expect(existsSync(socketDir)).toBe(false);
  });

  it('in memory, serves a socket in a private temporary directory that is removed on stop', async () => {
    const embedded = await EmbeddedPostgres.start('memory://');
    const socketDir = dirname(embedded.socketPath);
    try {
      expect(dirname(socketDir)).toBe(tmpdir());
      expect(lstatSync(socketDir).mode & 0o777).toBe(0o700);
      expect(await query<{ one: number }>(embedded.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await embedded.whenNoConnections();
      await embedded.stop();
    }
    expect(existsSync(socketDir)).toBe(false);
  });

  it('fails the process when its thread ends unexpectedly, rather than serving on without a database', () => {
    // The built module (npm test builds it) in a process of its own, whose thread is ended without
    // stop(), standing in for PGlite failing on it. Were the end ignored, the process would print
    // "still running" and exit 0.
    const built = new URL('../../dist/src/database/embedded-postgres.js', import.meta.url).href;
    const script = join(root, 'end-thread.mjs');
    writeFileSync(
      script,
      `const { EmbeddedPostgres } = await import(${JSON.stringify(built)});
       const embedded = await EmbeddedPostgres.start('memory://');
       await embedded.thread.terminate();
       setTimeout(() => { console.log('still running'); process.exit(0); }, 3000);`,
    );
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 30_000 });
    expect(child.stdout).not.toContain('still running');
    expect(child.status).toBe(1);
    expect(child.stderr).toContain("the embedded database's thread has ended");
  });
});
