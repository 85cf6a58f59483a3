import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverUrl, startServer, stop } from '../support/server-process.js';
import type { RunningServer } from '../support/server-process.js';

// Issue 31, defect 1: the embedded database met a full disk where PostgreSQL PANICs (a commit's WAL
// write), after which PGlite answered nothing again: every request, /health too, timed out until
// the process was restarted. The disk is made full where PGlite meets it: the built server is
// started with TABULA_TEST_ENOSPC_FILE, and while that file exists every write of the database
// fails with ENOSPC (DurableNodeFS), as on a full volume (a small volume needs root to mount).

interface Problem {
  status: number;
  code: string;
  detail: string;
}

/** A request that must answer within `ms` (the wedge answered nothing). */
async function within(url: string, init: RequestInit = {}, ms = 10_000): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
}

async function upload(baseUrl: string, text: string): Promise<Response> {
  return within(`${baseUrl}/games?filename=disk-full.txt`, { method: 'POST', body: text, headers: { 'Content-Type': 'text/plain' } });
}

(serverUrl ? describe.skip : describe)('the embedded database on a disk that fills up and gets room again (only on the embedded database)', () => {
  let dir: string;
  let server: RunningServer | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tabula-disk-full-'));
  });
  afterAll(async () => {
    await stop(server, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers while it cannot write, says why in /health and the log, and serves again by itself once there is room', async () => {
    const full = join(dir, 'disk-is-full');
    server = await startServer({ DATA_DIR: join(dir, 'data'), TABULA_TEST_ENOSPC_FILE: full, LOG_LEVEL: 'log', DOTS_PORT: '0' });
    const { baseUrl } = server;
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await upload(baseUrl, `kept before the disk filled: ${i}\n`);
      expect(answer.status).toBe(201);
      ids.push(((await answer.json()) as { id: number }).id);
    }

    // Each upload's audit entry is written after its answer: a write of its own, done before the disk fills.
    for (let tries = 0; ; tries++) {
      const audit = (await (await within(`${baseUrl}/audit?action=game.upload`)).json()) as { items: unknown[] };
      if (audit.items.length === 3) break;
      if (tries > 100) throw new Error(`the uploads' audit entries were not written: ${JSON.stringify(audit)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    writeFileSync(full, '');
    // A delete writes no new data pages, only WAL at its commit: where PostgreSQL PANICs.
    const removal = await within(`${baseUrl}/games/${ids[0]}`, { method: 'DELETE' });
    const removalProblem = (await removal.json()) as Problem;
    expect([removal.status, removalProblem.code]).toEqual([507, 'service.storage_full']);
    expect(removal.headers.get('retry-after')).toBe('60');

    // Stopped and restarted: every request is answered at once, /health says what happened.
    const health = await within(`${baseUrl}/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(health.headers.get('retry-after')).toBe('5');
    const healthProblem = (await health.json()) as Problem;
    expect(healthProblem.code).toBe('service.unavailable');
    expect(healthProblem.detail).toMatch(/^the embedded database stopped at \d{4}-\d\d-\d\dT[\d:.]+Z: PostgreSQL stopped \(PANIC\): 53100 could not write to log file .*No space left on device; it is restarted until it can write again/);
    const read = await within(`${baseUrl}/games/${ids[1]}`);
    expect([read.status, ((await read.json()) as Problem).code]).toEqual([503, 'service.unavailable']);
    expect(read.headers.get('retry-after')).toBe('5');
    // While the disk stays full, restarts fail (PostgreSQL's recovery must write), and /health counts them.
    const until = Date.now() + 15_000;
    let detail = '';
    while (!/restarts? failed so far/.test(detail) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      detail = ((await (await within(`${baseUrl}/health`)).json()) as Problem).detail;
    }
    expect(detail).toMatch(/\(\d+ restarts? failed so far, the last: /);

    rmSync(full);
    const roomAt = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - roomAt < 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await within(`${baseUrl}/health`)).status;
    }
    expect(status).toBe(200);

    // Everything committed before is there; the delete that met the full disk did not happen.
    for (const id of ids) expect((await within(`${baseUrl}/games/${id}`)).status).toBe(200);
    expect((await upload(baseUrl, 'stored once there is room again\n')).status).toBe(201);
    expect((await within(`${baseUrl}/games/${ids[0]}`, { method: 'DELETE' })).status).toBe(204);

    const log = server.output();
    expect(log).toMatch(/ERROR: \[Database\] the embedded database stopped: PostgreSQL stopped \(PANIC\): 53100 could not write to log file .*No space left on device/);
    expect(log).toMatch(/WARN: \[Database\] restarting the embedded database failed \(attempt 1\): /);
    expect(log).toMatch(/\[Database\] the embedded database serves again, [\d.]+ s after it stopped \(restart attempt \d+\)/);
  });
});
