import { readFileSync } from 'node:fs';
import { startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { HEAVY_BOARD_TEXT } from '../support/peg-solitaire/boards.js';

/**
 * Writes first, and work for a client that left stops (issue "Fair under load"). A heavy peg board's
 * solver works until ANALYSIS_BUDGET_MS whenever the board is read — stored, or replayed on request
 * — so each replay of it holds an analysis thread for that long; a small board is read at once.
 */
const BUDGET_MS = 2500;
const HEAVY_BOARD = Buffer.from(HEAVY_BOARD_TEXT);
const SMALL_BOARD = readFileSync('test/fixtures/realdata/peg/v2_head/Trapeze.brd');

async function upload(archive: TestArchive, bytes: Buffer): Promise<{ status: number; id: number; ms: number }> {
  const started = Date.now();
  const answer = await fetch(`${archive.baseUrl}/games`, { method: 'POST', body: new Uint8Array(bytes) });
  const body = (await answer.json()) as { id: number };
  return { status: answer.status, id: body.id, ms: Date.now() - started };
}

describe('fair under load: analysis threads', () => {
  let archive: TestArchive;
  let heavy: number;
  let small: number;

  beforeAll(async () => {
    archive = await startArchive({ ANALYSIS_THREADS: '1', ANALYSIS_WRITE_THREADS: '1', ANALYSIS_BUDGET_MS: String(BUDGET_MS), PICTURE_CACHE_MB: '0' });
    heavy = (await upload(archive, HEAVY_BOARD)).id;
    small = (await upload(archive, SMALL_BOARD)).id;
  }, 60_000);
  afterAll(async () => {
    await archive?.close();
  });

  it('stores an upload at once while replays hold the shared thread and queue behind it', async () => {
    const replays = [1, 2, 3].map(() => fetch(`${archive.baseUrl}/games/${heavy}/replay`).then((answer) => answer.status));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stored = await upload(archive, Buffer.from('(;GM[1]FF[4]SZ[9]PB[Fair]PW[Load];B[ee];W[cc])'));
    expect(stored.status).toBe(201);
    // Before writes had a lane of their own, the upload waited for the replays (3 × BUDGET_MS).
    expect(stored.ms).toBeLessThan(BUDGET_MS);
    expect(await Promise.all(replays)).toEqual([200, 200, 200]);
  }, 60_000);

  it("ends a replay whose client has gone: the next reader does not wait for it", async () => {
    const leaving = new AbortController();
    const left = fetch(`${archive.baseUrl}/games/${heavy}/replay`, { signal: leaving.signal }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    leaving.abort();
    await left;
    const started = Date.now();
    const next = await fetch(`${archive.baseUrl}/games/${small}/replay`);
    expect(next.status).toBe(200);
    // The heavy replay would have held the one read thread for BUDGET_MS had it gone on.
    expect(Date.now() - started).toBeLessThan(BUDGET_MS - 500);
  }, 60_000);
});
