import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { clientSignal, endingOf } from '../common/client-gone.js';
import { ProblemException } from '../common/problem-codes.js';
import { workerFile } from '../common/worker-file.js';
import { FormatError } from '../core/errors.js';
import type { FileGames, ReadResult } from '../formats/format-reader.js';
import { REPLAY_PARTS } from '../formats/plugin.js';
import type { ReplayPart } from '../formats/plugin.js';
import type { ReadLimits } from '../core/limits.js';
import type { RegeneratedFile, UploadedFile } from '../formats/plugin.js';
import type { AnalysisReply, AnalysisTask, ConvertReply, FormatErrorData, PngReply, ReadManyReply, ReadReply, RegenerateReply, SplitReply } from './analysis-task.js';

export interface AnalysisPoolOptions {
  /** Analysis threads at most for everything but writes' own (ANALYSIS_THREADS). */
  readonly threads: number;
  /** Threads beside those that only writes use (ANALYSIS_WRITE_THREADS); 0 when absent. */
  readonly writeThreads?: number;
  /** Writes waiting for a thread at most (ANALYSIS_QUEUE); past it, 503 with Retry-After. */
  readonly queue: number;
  /** Reads (pictures, replays, conversions) waiting at most (ANALYSIS_READ_QUEUE); `queue` when absent. */
  readonly readQueue?: number;
  /** Hard limit on one analysis once it runs (ANALYSIS_TIMEOUT_MS): the thread is ended and replaced. */
  readonly timeoutMs: number;
  /** Heap of one analysis thread (ANALYSIS_MEMORY_MB): past it the thread dies and is replaced. */
  readonly memoryMb: number;
  /** Soft budget for open-ended analysis inside a plugin (ANALYSIS_BUDGET_MS). */
  readonly budgetMs: number;
  readonly limits: ReadLimits;
  /** Format plugin modules each thread loads besides the built-in plugins (FORMAT_PLUGIN_MODULES). */
  readonly pluginModules?: readonly string[];
  /** The parts of the replay games read to be stored get, for the indexes on (src/indexes); every part when absent. */
  readonly replayParts?: readonly ReplayPart[];
}

/** Seconds a client is told to wait when every thread is busy and the queue is full. */
const BUSY_RETRY_AFTER_S = 2;

/** Time a fresh thread may take to load the plugins before its analysis starts, beyond the limit. */
const THREAD_START_ALLOWANCE_MS = 30_000;

/** Idle threads end after this long; the archive idles without any. */
const IDLE_THREAD_MS = 30_000;

/**
 * Whose work an analysis is. `write`: a game or file being stored (uploads, collections, imports,
 * the Dots server's archive). `read`: what a reader asked for (pictures, replays, conversions,
 * regenerations, re-indexing). Writes are served first and have threads of their own.
 */
export type Lane = 'write' | 'read';

/**
 * How an analysis is run: its lane (`read` when absent), and a signal that ends it when its client
 * has gone — by default a read's request's (src/common/client-gone.ts); a write goes on, its file
 * being whole already.
 */
export interface RunOptions {
  readonly lane?: Lane;
  readonly signal?: AbortSignal;
}

/**
 * Runs format plugins on worker threads (piscina), so no upload can hold the event loop: at most
 * `threads` analyses run at once, `queue` more wait, and each running one is stopped after
 * `timeoutMs` by ending its thread (piscina starts a fresh one when needed). The timer starts when
 * the thread begins the analysis — not while it waits in the queue or a fresh thread loads the
 * plugins — so neither a busy archive nor a cold start is blamed on a file. Idle threads end after
 * 30 s, so an idle archive holds no analysis memory.
 *
 * Two lanes share the threads ({@link Lane}): reads may hold `threads` of them at most, writes
 * every thread, `writeThreads` more besides; a thread that frees goes to a waiting write before a
 * waiting read, and each lane has its queue. A busy stream of pictures can so neither refuse nor
 * hold up an upload. An analysis whose client has gone (`signal`) leaves its queue, or has its
 * thread ended if it runs.
 */
export class AnalysisPool {
  private readonly piscina: Piscina<AnalysisTask, AnalysisReply>;
  private readonly running = { read: 0, write: 0 };
  private readonly waiting: Record<Lane, (() => void)[]> = { read: [], write: [] };
  private readonly slots: number;

  constructor(private readonly options: AnalysisPoolOptions) {
    this.slots = options.threads + (options.writeThreads ?? 0);
    this.piscina = new Piscina({
      filename: pathToFileURL(workerFile(import.meta.url, 'analysis.worker.js')).href,
      minThreads: 0,
      maxThreads: this.slots,
      idleTimeout: IDLE_THREAD_MS,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
      workerData: { pluginModules: options.pluginModules ?? [], replayParts: options.replayParts ?? REPLAY_PARTS },
    });
  }

  /**
   * Detects, parses, validates and replays an upload on an analysis thread. `withReplay: false`
   * for a reading that is only stored: its `analysis.replay` comes back empty.
   */
  async read(file: UploadedFile, format?: string, { withReplay = true, ...how }: { withReplay?: boolean } & RunOptions = {}): Promise<ReadResult> {
    const reply = (await this.run({ kind: 'read', ...this.fileTask(file), format, withReplay }, how)) as ReadReply;
    if (!reply.ok) throw asFormatError(reply.error);
    return reply.record;
  }

  /**
   * Reads several games of one file (each `bytes` a game; the same name and media type) in one task,
   * for storing: no replays come back, nor Header and Body texts that the bytes hold (see their
   * spans). Each game's answer is its reading or its FormatError. Should the batch as a whole pass
   * the time or memory limit, each game is read again on its own, under the limits of one analysis,
   * so only the game at fault fails.
   */
  async readMany(files: readonly UploadedFile[], format?: string, how: RunOptions = {}): Promise<(ReadResult | FormatError)[]> {
    if (files.length === 0) return [];
    const ends: number[] = [];
    let end = 0;
    for (const file of files) ends.push((end += file.bytes.length));
    const bytes = Buffer.concat(files.map((file) => file.bytes), end);
    const task = { kind: 'readMany' as const, ...this.fileTask({ ...files[0], bytes }), ends, format };
    let reply: ReadManyReply;
    try {
      reply = (await this.run(task, how)) as ReadManyReply;
    } catch (error) {
      if (!(error instanceof FormatError && (error.code === 'analysis.timeout' || error.code === 'analysis.memory'))) throw error;
      // One at a time: the batch held one slot of the pool, and so do its games now.
      const readings: (ReadResult | FormatError)[] = [];
      for (const file of files) readings.push(await this.read(file, format, { ...how, withReplay: false }).catch((failure: unknown) => asFailure(failure)));
      return readings;
    }
    return reply.results.map((result) => (result.ok ? result.record : asFormatError(result.error)));
  }

  /** A game written in another format of its family (`target`: `publisher/version`). */
  async convert(file: UploadedFile, publisher: string, version: string, target: string, how: RunOptions = {}): Promise<RegeneratedFile> {
    const reply = (await this.run({ kind: 'convert', ...this.fileTask(file), publisher, version, target }, how)) as ConvertReply;
    if (!reply.ok) throw asFormatError(reply.error);
    return asRegenerated(reply.file);
  }

  /** Where the games of a file lie (several for a collection), and the format to read each with. */
  async split(file: UploadedFile, format?: string, how: RunOptions = {}): Promise<FileGames> {
    const reply = (await this.run({ kind: 'split', ...this.fileTask(file), format }, how)) as SplitReply;
    if (!reply.ok) throw asFormatError(reply.error);
    return reply.games;
  }

  /** The record re-written with regenerated caches; undefined when no plugin reads that format. */
  async regenerate(file: UploadedFile, publisher: string, version: string, how: RunOptions = {}): Promise<RegeneratedFile | undefined> {
    const reply = (await this.run({ kind: 'regenerate', ...this.fileTask(file), publisher, version }, how)) as RegenerateReply;
    if (!reply.ok) throw asFormatError(reply.error);
    return reply.file ? asRegenerated(reply.file) : undefined;
  }

  /**
   * A board SVG drawn as PNG on an analysis thread: resvg's drawing and encoding take 50 ms and more
   * for a large picture, which the event loop only awaits. Same queue and limits as an analysis.
   */
  async png(svg: string, how: RunOptions = {}): Promise<Buffer> {
    const { png } = (await this.run({ kind: 'png', svg }, how)) as PngReply;
    return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }

  /** Nest calls this on shutdown: the threads end with the archive. */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  private fileTask(file: UploadedFile) {
    return { bytes: ownBytes(file.bytes), filename: file.filename, mediaType: file.mediaType, timeBudgetMs: this.options.budgetMs, limits: this.options.limits };
  }

  private async run(task: AnalysisTask, { lane = 'read', signal }: RunOptions): Promise<AnalysisReply> {
    const client = signal ?? (lane === 'read' ? clientSignal() : undefined);
    await this.acquire(lane, client);
    // The thread says when it begins; only then does the analysis's own clock start.
    const { port1: began, port2: beginning } = new MessageChannel();
    const stop = new AbortController();
    let clock: NodeJS.Timeout | undefined;
    began.once('message', () => {
      clock = setTimeout(() => stop.abort(), this.options.timeoutMs);
    });
    const ending = AbortSignal.any([stop.signal, AbortSignal.timeout(this.options.timeoutMs + THREAD_START_ALLOWANCE_MS), ...(client ? [client] : [])]);
    try {
      return await this.piscina.run({ ...task, began: beginning }, { signal: ending, transferList: [beginning] });
    } catch (error) {
      throw client?.aborted ? endingOf(client) : this.explain(error);
    } finally {
      clearTimeout(clock);
      began.close();
      this.release(lane);
    }
  }

  private explain(error: unknown): unknown {
    const name = (error as Error)?.name;
    const code = (error as { code?: string })?.code;
    if (name === 'AbortError') {
      return new FormatError(
        `analysing the file took longer than ${this.options.timeoutMs} ms (ANALYSIS_TIMEOUT_MS) and was stopped; nothing was stored`,
        [],
        422,
        'analysis.timeout',
      );
    }
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new FormatError(
        `analysing the file needed more than ${this.options.memoryMb} MB (ANALYSIS_MEMORY_MB) and was stopped; nothing was stored`,
        [],
        422,
        'analysis.memory',
      );
    }
    return error;
  }

  /** Whether an analysis of this lane may start now: a thread is free, and a read leaves writes theirs. */
  private mayStart(lane: Lane): boolean {
    if (this.running.read + this.running.write >= this.slots) return false;
    return lane === 'write' || this.running.read < this.options.threads;
  }

  private async acquire(lane: Lane, client: AbortSignal | undefined): Promise<void> {
    if (client?.aborted) throw endingOf(client);
    // A write never queues behind reads; a read never goes before a waiting write.
    if (this.mayStart(lane) && (lane === 'write' || this.waiting.write.length === 0)) {
      this.running[lane]++;
      return;
    }
    const limit = lane === 'write' ? this.options.queue : (this.options.readQueue ?? this.options.queue);
    if (this.waiting[lane].length >= limit) {
      const what = lane === 'write' ? `${limit} uploads are waiting (ANALYSIS_QUEUE)` : `${limit} pictures, replays and conversions are waiting (ANALYSIS_READ_QUEUE)`;
      throw new ProblemException(503, 'analysis.busy', `the analysis threads are busy and ${what}: retry later`, BUSY_RETRY_AFTER_S);
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = () => resolve();
      this.waiting[lane].push(waiter);
      client?.addEventListener(
        'abort',
        () => {
          const at = this.waiting[lane].indexOf(waiter);
          if (at < 0) return;
          this.waiting[lane].splice(at, 1);
          reject(endingOf(client));
        },
        { once: true },
      );
    });
  }

  private release(lane: Lane): void {
    this.running[lane]--;
    // Waiting writes first, then reads, as long as threads are free for them.
    for (const next of ['write', 'read'] as const) {
      while (this.waiting[next].length > 0 && this.mayStart(next)) {
        this.running[next]++;
        this.waiting[next].shift()!();
      }
    }
  }
}

/**
 * The bytes on a memory block of their own. A message to a thread copies a byte view's whole
 * underlying block, not just the view: one game of a 20 MB collection would send 20 MB.
 */
function ownBytes(bytes: Buffer): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** A game's FormatError as its answer; anything else fails the whole batch. */
function asFailure(error: unknown): FormatError {
  if (error instanceof FormatError) return error;
  throw error;
}

function asFormatError(data: FormatErrorData): FormatError {
  return new FormatError(data.message, data.issues, data.status, data.code);
}

/** A file written on a thread: its content arrives as a Uint8Array, and leaves as a Buffer. */
function asRegenerated(file: Omit<RegeneratedFile, 'content'> & { content: string | Uint8Array }): RegeneratedFile {
  const { content } = file;
  return { ...file, content: typeof content === 'string' ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength) };
}
