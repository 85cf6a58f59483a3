import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanly, createStore, serverUrl, spawnServer, startServer, stop } from '../support/server-process.js';
import type { RunningServer } from '../support/server-process.js';
import { checkResponsesOf } from '../support/spec-check.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url));
/** Real game files: GoFans XML (indexed), BARS and Dots server records, and SGF files (kept as text). */
const REAL_FILES: { name: string; bytes: Buffer }[] = [
  'gofans-examples/ex_1.1.xml',
  'gofans-examples/ex_1.2.xml',
  'gofans-examples/ex_2.1.xml',
  'gofans-examples/ex_2.2.xml',
  '../e2e/fixtures/demonstration.bars',
  '../e2e/fixtures/board-state.204',
  'realdata/dots/bartek-d-kropla/zagram318442.sgf',
  'realdata/go/gnugo_regression_games/strategy38.sgf',
].map((path) => ({ name: path.split('/').pop()!, bytes: fixture(path) }));

interface Acknowledged {
  readonly name: string;
  readonly bytes: Buffer;
  readonly id: number;
}

describe('the built server killed in the middle of uploads', () => {
  const CLIENTS = 4;
  /** Acknowledged uploads after which the server is killed, while every client still has one in flight. */
  const KILL_AFTER = 60;
  let store: Awaited<ReturnType<typeof createStore>>;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    store = await createStore();
  });
  afterAll(async () => {
    await stop(server, 'SIGKILL');
    await store?.remove();
  });

  it(`keeps every upload it acknowledged, byte for byte, under the same id (${serverUrl ? 'PostgreSQL server' : 'embedded database'})`, async () => {
    server = await startServer(store.settings, { watch: checkResponsesOf });
    const running = server;
    const acknowledged: Acknowledged[] = [];
    let killed = false;
    const run = randomBytes(6).toString('hex');

    const client = async (c: number) => {
      // Each client starts with its share of the real files, then sends distinct text files.
      const files = [
        ...REAL_FILES.filter((_, i) => i % CLIENTS === c),
        ...Array.from({ length: 500 }, (_, i) => {
          const name = `client-${c}-${i}.txt`;
          return { name, bytes: Buffer.from(`crash test ${run}: client ${c}, upload ${i}\n${'x'.repeat((i * 37) % 900)}\n`) };
        }),
      ];
      for (const file of files) {
        let answer: Response;
        try {
          answer = await fetch(`${running.baseUrl}/games?filename=${encodeURIComponent(file.name)}`, {
            method: 'POST',
            body: new Uint8Array(file.bytes),
            headers: { 'Content-Type': 'text/plain' },
          });
        } catch {
          return; // the server is gone
        }
        const body = await answer.text().catch(() => undefined);
        if ((answer.status === 201 || answer.status === 200) && body !== undefined) {
          acknowledged.push({ ...file, id: (JSON.parse(body) as { id: number }).id });
          if (acknowledged.length >= KILL_AFTER && !killed) {
            killed = true;
            running.process.kill('SIGKILL');
          }
        } else if (killed || answer.status >= 500) {
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    expect(killed).toBe(true);
    expect(await running.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The real files go first, so some of them were acknowledged, and indexed or kept.
    expect(acknowledged.filter((file) => !file.name.startsWith('client-')).length).toBeGreaterThan(0);

    server = await startServer(store.settings, { watch: checkResponsesOf });
    const restarted = server;
    const missing: string[] = [];
    for (const file of acknowledged) {
      const raw = await fetch(`${restarted.baseUrl}/games/${file.id}/raw`);
      const bytes = Buffer.from(await raw.arrayBuffer());
      if (raw.status !== 200 || !bytes.equals(file.bytes)) missing.push(`${file.name} as game ${file.id}: ${raw.status}, ${bytes.length} bytes`);
    }
    expect(missing).toEqual([]);
    // Uploading the same bytes again finds the same game: the index on their hash survived too.
    for (const file of acknowledged.slice(0, 12)) {
      const again = await fetch(`${restarted.baseUrl}/games`, { method: 'POST', body: new Uint8Array(file.bytes), headers: { 'Content-Type': 'text/plain' } });
      expect({ name: file.name, status: again.status, id: ((await again.json()) as { id: number }).id }).toEqual({ name: file.name, status: 200, id: file.id });
    }
    const ending = await stop(restarted);
    expect(cleanly(ending)).toBe(true);
  });
});

(serverUrl ? describe.skip : describe)('one server per DATA_DIR (only on the embedded database)', () => {
  let dataDir: string;
  let owner: RunningServer | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tabula-owner-'));
  });
  afterAll(async () => {
    await stop(owner, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('recovers a stale lock, refuses a second server naming the directory, lock file and owner, and releases the lock on shutdown', async () => {
    const lockFile = join(dataDir, 'tabula.lock');
    const dead = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await new Promise((resolve) => dead.once('exit', resolve));
    writeFileSync(lockFile, `${dead.pid}\n`);

    owner = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, { watch: checkResponsesOf });
    expect(owner.output()).toContain(`recovered a stale lock ${lockFile} (pid ${dead.pid} is not running)`);
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(owner.process.pid));

    const second = spawnServer({ DATA_DIR: dataDir });
    const { code } = await second.exited;
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(second.output()).toContain(`DATA_DIR ${dataDir} is in use by another Tabula process (pid ${owner.process.pid}, lock file ${lockFile})`);

    // The owner is unharmed and still serves.
    expect((await fetch(`${owner.baseUrl}/health`)).status).toBe(200);
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(owner.process.pid));

    const ending = await stop(owner);
    expect(cleanly(ending)).toBe(true);
    expect(existsSync(lockFile)).toBe(false);
    expect(existsSync(join(dataDir, 'socket', '.s.PGSQL.5432'))).toBe(false);
  });
});
