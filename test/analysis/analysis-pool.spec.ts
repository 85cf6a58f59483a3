import { readFileSync } from 'node:fs';
import { AnalysisPool } from '../../src/analysis/analysis-pool.js';
import { ProblemException } from '../../src/common/problem-codes.js';
import { FormatError } from '../../src/core/errors.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { HEAVY_BOARD_TEXT } from '../support/peg-solitaire/boards.js';

const HEAVY_BOARD = Buffer.from(HEAVY_BOARD_TEXT);
const ENGLISH_BOARD = readFileSync('test/fixtures/realdata/peg/v2_head/English Standard Board.brd');
/** A board of a few holes, read and solved in a few milliseconds even by a cold thread. */
const SMALL_BOARD = readFileSync('test/fixtures/realdata/peg/v2_head/Trapeze.brd');

function pool(options: Partial<ConstructorParameters<typeof AnalysisPool>[0]> = {}): AnalysisPool {
  return new AnalysisPool({ threads: 1, queue: 4, timeoutMs: 10_000, memoryMb: 256, budgetMs: 2000, limits: DEFAULT_LIMITS, ...options });
}

describe('AnalysisPool', () => {
  it('reads an upload on a worker thread and hands back the plugin record', async () => {
    const analysis = pool();
    try {
      const record = await analysis.read({ bytes: ENGLISH_BOARD, filename: 'English Standard Board.brd' });
      // The English board from its centre is the classic solvable puzzle: 31 jumps leave one peg.
      expect(record).toMatchObject({ publisher: 'ViaThinkSoft Peg Solitaire', version: '2', charset: 'utf-8' });
      expect(record.analysis).toMatchObject({ result: 'solvable', moveCount: 31 });
    } finally {
      await analysis.close();
    }
  });

  it('reads a slice of a large file from the slice alone, and leaves the replay out when asked', async () => {
    const analysis = pool();
    // The board sits in the middle of 64 MB: a thread message copies a view's whole memory block, so
    // the slice must travel on its own; spied on at the thread pool's door.
    const large = Buffer.alloc(64 * 1024 * 1024, 0x20);
    ENGLISH_BOARD.copy(large, 1000);
    const slice = large.subarray(1000, 1000 + ENGLISH_BOARD.length);
    const sent: number[] = [];
    const piscina = (analysis as unknown as { piscina: { run: (task: { bytes: Uint8Array }) => Promise<unknown> } }).piscina;
    const run = piscina.run.bind(piscina);
    piscina.run = (task, ...rest) => {
      sent.push(task.bytes.buffer.byteLength);
      return (run as (...args: unknown[]) => Promise<unknown>)(task, ...rest);
    };
    try {
      const full = await analysis.read({ bytes: slice });
      const stored = await analysis.read({ bytes: slice }, undefined, { withReplay: false });
      expect(sent).toEqual([ENGLISH_BOARD.length, ENGLISH_BOARD.length]);
      // 31 jumps solve the English board; a reading to store keeps everything but the plies.
      expect(full.analysis?.replay).toHaveLength(31);
      expect(stored.analysis?.replay).toEqual([]);
      expect({ ...stored.analysis, replay: undefined }).toEqual({ ...full.analysis, replay: undefined });
    } finally {
      await analysis.close();
    }
  });

  it('keeps the event loop free while a heavy board is solved', async () => {
    const analysis = pool({ budgetMs: 1500 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      const record = await analysis.read({ bytes: HEAVY_BOARD });
      expect(record.analysis?.details).toMatchObject({ solvable: 'unknown' });
      // Had the solver run on this thread, no timer could have fired before it returned.
      expect(ticks).toBeGreaterThan(10);
    } finally {
      clearInterval(timer);
      await analysis.close();
    }
  });

  it('stops an analysis past the hard limit with analysis.timeout, and the next upload gets a fresh thread', async () => {
    // With a budget this large the solver would work on the board for a minute: the hard limit ends it.
    const analysis = pool({ timeoutMs: 500, budgetMs: 60_000 });
    try {
      const error = await analysis.read({ bytes: HEAVY_BOARD }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FormatError);
      expect(error).toMatchObject({ status: 422, code: 'analysis.timeout' });
      expect((error as FormatError).message).toMatch(/ANALYSIS_TIMEOUT_MS/);
      // A fresh thread takes the next upload; loading the plugins there is not counted against it.
      await expect(analysis.read({ bytes: SMALL_BOARD })).resolves.toMatchObject({ family: 'peg-solitaire' });
    } finally {
      await analysis.close();
    }
  });

  it('does not count a fresh thread loading the plugins against the limit', async () => {
    // Loading every plugin on a new thread takes longer than 150 ms; reading this board does not.
    const analysis = pool({ timeoutMs: 150, budgetMs: 100 });
    try {
      await expect(analysis.read({ bytes: SMALL_BOARD })).resolves.toMatchObject({ family: 'peg-solitaire' });
    } finally {
      await analysis.close();
    }
  });

  it('answers 503 analysis.busy with Retry-After when every thread is busy and the queue is full', async () => {
    const analysis = pool({ threads: 1, queue: 1, budgetMs: 1000 });
    try {
      const running = analysis.read({ bytes: HEAVY_BOARD });
      const waiting = analysis.read({ bytes: HEAVY_BOARD });
      const refused = await analysis.read({ bytes: ENGLISH_BOARD }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ProblemException);
      expect(refused).toMatchObject({ code: 'analysis.busy', retryAfterSeconds: 2 });
      expect((refused as ProblemException).getStatus()).toBe(503);
      await expect(Promise.all([running, waiting])).resolves.toHaveLength(2);
      // With the queue drained, uploads are taken again.
      await expect(analysis.read({ bytes: ENGLISH_BOARD })).resolves.toMatchObject({ family: 'peg-solitaire' });
    } finally {
      await analysis.close();
    }
  });

  it('reads a batch of games in one task, each answered with its reading or its FormatError', async () => {
    const analysis = pool();
    try {
      const [english, broken, small] = await analysis.readMany([{ bytes: ENGLISH_BOARD }, { bytes: Buffer.from('Version 2\r\nMode: Normal\r\ny y ?\r\n') }, { bytes: SMALL_BOARD }]);
      expect(english).toMatchObject({ family: 'peg-solitaire', analysis: { result: 'solvable', moveCount: 31, replay: [] } });
      expect(broken).toBeInstanceOf(FormatError);
      expect(broken).toMatchObject({ code: 'format.malformed' });
      expect(small).toMatchObject({ family: 'peg-solitaire' });
    } finally {
      await analysis.close();
    }
  });

  it('reads a batch past the time limit again game by game, so only a game at fault would fail', async () => {
    // Each heavy board spends its 900 ms budget; the three together pass the 2 s limit, each alone does not.
    const analysis = pool({ timeoutMs: 2000, budgetMs: 900 });
    try {
      const readings = await analysis.readMany([{ bytes: HEAVY_BOARD }, { bytes: HEAVY_BOARD }, { bytes: HEAVY_BOARD }]);
      expect(readings.map((reading) => (reading instanceof FormatError ? reading.code : reading.analysis?.details.solvable))).toEqual(['unknown', 'unknown', 'unknown']);
    } finally {
      await analysis.close();
    }
  });

  it('sends format errors back as FormatErrors with their code and location', async () => {
    const analysis = pool();
    try {
      const error = await analysis.read({ bytes: Buffer.from('Version 2\r\nMode: Normal\r\ny y ?\r\n') }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FormatError);
      expect(error).toMatchObject({ status: 422, code: 'format.malformed' });
      expect((error as FormatError).issues[0]).toMatchObject({ line: 3 });
    } finally {
      await analysis.close();
    }
  });

  it('regenerates on a worker thread, content as a Buffer', async () => {
    const analysis = pool();
    try {
      const file = await analysis.regenerate({ bytes: ENGLISH_BOARD }, 'ViaThinkSoft Peg Solitaire', '2');
      expect(file).toBeDefined();
      expect(file!.publisher).toBe('ViaThinkSoft Peg Solitaire');
      await expect(analysis.regenerate({ bytes: ENGLISH_BOARD }, 'Nobody', '9')).resolves.toBeUndefined();
    } finally {
      await analysis.close();
    }
  });
});
