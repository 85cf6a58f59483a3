import { readFileSync } from 'node:fs';
import { AnalysisPool } from '../../src/analysis/analysis-pool.js';
import { RequestCancelled } from '../../src/common/client-gone.js';
import { ProblemException } from '../../src/common/problem-codes.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { HEAVY_BOARD_TEXT } from '../support/peg-solitaire/boards.js';

/**
 * Writes before reads: the analyses of files being stored never wait behind pictures, replays and
 * conversions, and an analysis whose client has gone ends. A heavy board's solver works until its
 * budget (ANALYSIS_BUDGET_MS): a read that holds a thread for that long; a small board is read in
 * a few milliseconds.
 */
const HEAVY_BOARD = Buffer.from(HEAVY_BOARD_TEXT);
const SMALL_BOARD = readFileSync('test/fixtures/realdata/peg/v2_head/Trapeze.brd');
const BUDGET_MS = 1500;

function pool(options: Partial<ConstructorParameters<typeof AnalysisPool>[0]> = {}): AnalysisPool {
  return new AnalysisPool({ threads: 1, writeThreads: 1, queue: 4, readQueue: 4, timeoutMs: 20_000, memoryMb: 256, budgetMs: BUDGET_MS, limits: DEFAULT_LIMITS, ...options });
}

/** When each promise settled, in ms from now. */
function timed<T>(promise: Promise<T>, started: number): Promise<number> {
  return promise.then(
    () => Date.now() - started,
    () => Date.now() - started,
  );
}

describe('AnalysisPool lanes', () => {
  it('stores a file while reads hold every shared thread and more wait', async () => {
    const analysis = pool();
    try {
      // Warm a thread for the write, so the measure is not a cold start.
      await analysis.read({ bytes: SMALL_BOARD }, undefined, { lane: 'write', withReplay: false });
      const started = Date.now();
      const reads = [1, 2, 3].map(() => timed(analysis.read({ bytes: HEAVY_BOARD }), started));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const write = await timed(analysis.read({ bytes: SMALL_BOARD }, undefined, { lane: 'write', withReplay: false }), started);
      const readTimes = await Promise.all(reads);
      // The reads run one after another on their one thread; the write did not wait for the first.
      expect(Math.min(...readTimes)).toBeGreaterThanOrEqual(BUDGET_MS);
      expect(write).toBeLessThan(BUDGET_MS);
    } finally {
      await analysis.close();
    }
  }, 30_000);

  it('without threads of their own, writes still go before every waiting read', async () => {
    const analysis = pool({ writeThreads: 0 });
    try {
      const order: string[] = [];
      const first = analysis.read({ bytes: HEAVY_BOARD }).then(() => order.push('read 1'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = analysis.read({ bytes: HEAVY_BOARD }).then(() => order.push('read 2'));
      const write = analysis.read({ bytes: SMALL_BOARD }, undefined, { lane: 'write', withReplay: false }).then(() => order.push('write'));
      await Promise.all([first, second, write]);
      expect(order).toEqual(['read 1', 'write', 'read 2']);
    } finally {
      await analysis.close();
    }
  }, 30_000);

  it('refuses reads past their queue with 503 while it still takes writes', async () => {
    const analysis = pool({ readQueue: 1 });
    try {
      const running = analysis.read({ bytes: HEAVY_BOARD });
      const waiting = analysis.read({ bytes: HEAVY_BOARD });
      const refused = await analysis.read({ bytes: HEAVY_BOARD }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ProblemException);
      expect(refused).toMatchObject({ code: 'analysis.busy' });
      expect((refused as Error).message).toMatch(/ANALYSIS_READ_QUEUE/);
      const stored = await analysis.read({ bytes: SMALL_BOARD }, undefined, { lane: 'write', withReplay: false });
      expect(stored.publisher).toBe('ViaThinkSoft Peg Solitaire');
      await Promise.all([running, waiting]);
    } finally {
      await analysis.close();
    }
  }, 30_000);

  it('ends a running analysis and drops a waiting one when their client goes', async () => {
    const analysis = pool();
    try {
      const started = Date.now();
      const runningClient = new AbortController();
      const waitingClient = new AbortController();
      const running = analysis.read({ bytes: HEAVY_BOARD }, undefined, { signal: runningClient.signal }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const waiting = analysis.read({ bytes: HEAVY_BOARD }, undefined, { signal: waitingClient.signal }).catch((error: unknown) => error);
      const next = timed(analysis.read({ bytes: SMALL_BOARD }), started);
      waitingClient.abort();
      runningClient.abort();
      expect(await running).toBeInstanceOf(RequestCancelled);
      expect(await waiting).toBeInstanceOf(RequestCancelled);
      // The next read did not wait for either heavy board: the thread was freed at once.
      expect(await next).toBeLessThan(BUDGET_MS);
      const gone = new AbortController();
      gone.abort();
      expect(await analysis.read({ bytes: SMALL_BOARD }, undefined, { signal: gone.signal }).catch((error: unknown) => error)).toBeInstanceOf(RequestCancelled);
    } finally {
      await analysis.close();
    }
  }, 30_000);
});
