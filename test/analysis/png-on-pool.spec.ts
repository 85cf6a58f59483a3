import { performance } from 'node:perf_hooks';
import { AnalysisPool } from '../../src/analysis/analysis-pool.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { svgToPng } from '../../src/render/png.js';

/**
 * A board the size of the largest pictures served (2048 px, a 39×32 board full of stones and
 * coordinates): resvg takes tens of milliseconds to draw and encode it.
 */
function largeBoard(): string {
  const size = 2048;
  const step = size / 41;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" font-family="sans-serif">`, `<rect width="${size}" height="${size}" fill="#dcb35c"/>`];
  for (let x = 0; x < 39; x++) {
    parts.push(`<line x1="${step * (x + 1)}" y1="${step}" x2="${step * (x + 1)}" y2="${step * 32}" stroke="#000"/>`);
    parts.push(`<text x="${step * (x + 1)}" y="${step / 2}" font-size="14" text-anchor="middle">${x + 1}</text>`);
    for (let y = 0; y < 32; y++) {
      if ((x * 7 + y * 3) % 5 < 3) parts.push(`<circle cx="${step * (x + 1)}" cy="${step * (y + 1)}" r="${step * 0.45}" fill="${(x + y) % 2 ? '#fff' : '#000'}" stroke="#000"/>`);
    }
  }
  parts.push('</svg>');
  return parts.join('');
}

/**
 * How long the event loop was busy (not waiting for I/O or timers) while `work` ran, by Node's own
 * event-loop utilisation: what runs on another thread does not count, and neither does time this
 * process spent descheduled while it waited. Time it spent descheduled while it had work (a result
 * to take) does count: on a loaded machine the little the loop does for the pool's answers can
 * stretch to hundreds of milliseconds (seen once in CI's run of every suite), hence the best of a
 * few rounds below.
 */
async function loopBusyMs(work: () => Promise<unknown>): Promise<number> {
  const before = performance.eventLoopUtilization();
  await work();
  return performance.eventLoopUtilization(before).active;
}

describe('PNG board pictures on the analysis threads', () => {
  const svg = largeBoard();
  let pool: AnalysisPool;

  beforeAll(() => {
    pool = new AnalysisPool({ threads: 2, queue: 16, timeoutMs: 20_000, memoryMb: 256, budgetMs: 2000, limits: DEFAULT_LIMITS });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('are the same bytes as drawn on the event loop', async () => {
    const [here, there] = [await svgToPng(svg), await pool.png(svg)];
    expect(there.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([there.readUInt32BE(16), there.readUInt32BE(20)]).toEqual([2048, 2048]);
    expect(there.equals(here)).toBe(true);
  });

  it('keep the event loop free while several are made (it is busy a quarter as long, at most, as when it encodes them)', async () => {
    const count = 6;
    await pool.png(svg); // a warm thread, as a running archive has
    const onLoop = await loopBusyMs(() => Promise.all(Array.from({ length: count }, () => svgToPng(svg))));
    // The best of three rounds: load from outside only ever adds to the loop's busy time.
    const rounds: number[] = [];
    for (let round = 0; round < 3; round++) rounds.push(await loopBusyMs(() => Promise.all(Array.from({ length: count }, () => pool.png(svg)))));
    expect(Math.min(...rounds)).toBeLessThan(onLoop / 4);
  });
});
