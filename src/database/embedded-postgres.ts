import { chmodSync, closeSync, cpSync, existsSync, fsyncSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { PGlite } from '@electric-sql/pglite';
import { workerFile } from '../common/worker-file.js';
import { builtTemplate, initdb } from './pgdata-template.js';
import type { EmbeddedPanic, EmbeddedReply, EmbeddedRequest, EmbeddedStart, EmbeddedThreadData } from './embedded-postgres-messages.js';

/** What the embedded database is going through when it cannot serve: why it stopped, since when, how restarting goes. */
export interface EmbeddedOutage {
  /** The PANIC (or the thread's end) that stopped it. */
  readonly cause: string;
  readonly since: Date;
  /** Restarts tried so far, and why the last one failed (a full disk still: PostgreSQL's recovery must write). */
  readonly attempts: number;
  readonly lastError: string | null;
}

/** Waits between restarts of a stopped embedded database, in ms: quick at first, then every 5 s. */
const RESTART_DELAYS_MS = [250, 1000, 2000, 5000];

/** Time the thread is left after its PANIC, for the error to reach the client whose statement met it. */
const PANIC_GRACE_MS = 200;

/**
 * PostgreSQL in the process (PGlite), served on a Unix socket so the ordinary `pg` driver and TypeORM
 * talk to it exactly as to a real server. PGlite runs one query at a time; the socket server
 * multiplexes connections and keeps a transaction's statements together. Both run on a thread of
 * their own (embedded-postgres.worker.ts): a statement never holds the event loop, and the database
 * works while the event loop writes answers, as a server would on its own core.
 *
 * The socket has no password (PGlite has no authentication), so it is made reachable by this
 * process's user only: it lives in a directory of mode 0700 (`DATA_DIR/socket`, or a fresh temporary
 * directory when that path is too long for a socket or the database is in memory) and has mode 0600.
 * No TCP port is opened.
 */
export class EmbeddedPostgres {
  private static readonly logger = new Logger('Database');
  private readonly pending = new Map<number, { resolve: (value: number | null) => void; reject: (error: Error) => void }>();
  private nextRequest = 1;
  /** Why the thread is gone, once it is (and no restart brings it back). */
  private ended: Error | undefined;
  /** Set once stop() is called: the thread's end is then expected. */
  private stopping = false;
  /** Set while the database is stopped and being restarted. */
  private outageState: EmbeddedOutage | null = null;
  private restarting: Promise<void> | null = null;

  private constructor(
    /** Null between a PANIC and the restart that replaces it. */
    private thread: Worker | null,
    /** The directory holding the socket, as `pg` wants it in `host`. */
    readonly socketDirectory: string,
    private readonly temporaryDirectory: boolean,
    private readonly data: EmbeddedThreadData,
  ) {
    this.attach(thread!);
  }

  /**
   * Listens to a running thread. Its PANIC report starts a restart: PGlite answers nothing after a
   * PANIC (a PostgreSQL server's postmaster would restart its processes), so the thread is ended and
   * a new one opens the same data directory, which runs PostgreSQL's crash recovery from the WAL
   * (every acknowledged commit is there). Until a restart succeeds the socket refuses connections,
   * which the archive answers 503 with Retry-After, and /health says why.
   */
  private attach(thread: Worker): void {
    thread.on('message', (message: EmbeddedReply | EmbeddedPanic) => {
      if ('panic' in message) {
        if (this.thread === thread) this.restart(thread, `PostgreSQL stopped (PANIC): ${message.panic}`);
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if ('error' in message) waiting.reject(new Error(message.error));
      else waiting.resolve(message.value);
    });
    const end = (error: Error) => {
      if (this.thread !== thread) return; // a thread ended on purpose by a restart
      const unexpected = !this.stopping && !this.ended;
      this.ended ??= error;
      for (const waiting of this.pending.values()) waiting.reject(this.ended);
      this.pending.clear();
      // The archive cannot go on without its database: the process fails as it did when PGlite ran on
      // the event loop's thread, and whatever supervises it starts it again (PostgreSQL recovers).
      if (unexpected) {
        queueMicrotask(() => {
          throw error;
        });
      }
    };
    thread.on('error', end);
    thread.on('exit', (code) => end(new Error(`the embedded database's thread has ended (exit code ${code})`)));
  }

  /** Null while the database serves; while it is stopped and restarted, what happened. */
  outage(): EmbeddedOutage | null {
    return this.outageState;
  }

  /** Resolves once a restart under way has brought the database back (or the database stops). */
  async whenServing(): Promise<void> {
    while (this.restarting !== null) await this.restarting;
  }

  private restart(failed: Worker, cause: string): void {
    if (this.stopping || this.restarting !== null) return;
    this.outageState = { cause, since: new Date(), attempts: 0, lastError: null };
    EmbeddedPostgres.logger.error(`the embedded database stopped: ${cause}; it is restarted until it can write again (requests meanwhile: 503 service.unavailable)`);
    // The thread is replaced below: its end is expected from now on.
    this.thread = null;
    for (const waiting of this.pending.values()) waiting.reject(new Error(`the embedded database stopped: ${cause}`));
    this.pending.clear();
    this.restarting = (async () => {
      // A moment for the PANIC's error to reach its client (a full disk: 507), then the thread goes.
      await new Promise((resolve) => setTimeout(resolve, PANIC_GRACE_MS));
      await failed.terminate().catch(() => undefined);
      for (let attempt = 1; !this.stopping; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, RESTART_DELAYS_MS[Math.min(attempt - 1, RESTART_DELAYS_MS.length - 1)]));
        if (this.stopping) break;
        const thread = new Worker(workerFile(import.meta.url, 'embedded-postgres.worker.js'), { workerData: this.data });
        try {
          const started = await startMessageOf(thread);
          if (!started.ready) throw new Error(started.message);
        } catch (error) {
          await thread.terminate().catch(() => undefined);
          const message = error instanceof Error ? error.message : String(error);
          this.outageState = { ...this.outageState!, attempts: attempt, lastError: message };
          if (attempt === 1 || attempt % 10 === 0) EmbeddedPostgres.logger.warn(`restarting the embedded database failed (attempt ${attempt}): ${message}`);
          continue;
        }
        if (this.stopping) {
          await thread.terminate().catch(() => undefined);
          break;
        }
        this.thread = thread;
        this.attach(thread);
        const seconds = ((Date.now() - this.outageState!.since.getTime()) / 1000).toFixed(1);
        EmbeddedPostgres.logger.log(`the embedded database serves again, ${seconds} s after it stopped (restart attempt ${attempt})`);
        this.outageState = null;
        break;
      }
    })().finally(() => {
      this.restarting = null;
    });
  }

  /** One connection: PGlite executes serially anyway, and one client keeps protocol exchanges unmixed. */
  static readonly MAX_CONNECTIONS = 1;

  /** The port in the socket's name, `.s.PGSQL.<port>`, which is how `pg` finds a socket in `host`. */
  static readonly SOCKET_PORT = 5432;

  /** sun_path holds 108 bytes on Linux (104 on macOS), the terminating NUL included. */
  static readonly MAX_SOCKET_PATH_BYTES = 103;

  /**
   * Settings given to Postgres on its command line, after PGlite's own (a later `-c` wins).
   * - `fsync=on`: PGlite starts Postgres with `-F` (fsync off); with {@link DurableNodeFS} an fsync
   *   reaches the disk, so a commit survives a crash of the machine, not only of the process.
   * - `wal_sync_method=fsync`: Postgres's Linux default, fdatasync, is a no-op in Emscripten.
   * - `shared_buffers`: PGlite's default, 128 MB, is all resident from the start (Postgres initialises
   *   the buffer pool, and WebAssembly memory never shrinks); 16 MB saves ~110 MB of RSS. Pages
   *   evicted from it are still in the kernel's page cache, since NODEFS reads go through it.
   */
  static readonly SETTINGS: Readonly<Record<string, string>> = {
    fsync: 'on',
    wal_sync_method: 'fsync',
    shared_buffers: '16MB',
  };

  /**
   * @param faultFile fault tests only ({@link DurableNodeFS}): while this file exists, the database's
   *   writes fail with ENOSPC.
   */
  static async start(dataDir: string, faultFile?: string): Promise<EmbeddedPostgres> {
    const inMemory = dataDir === 'memory://';
    const location = inMemory ? undefined : resolve(dataDir, 'pgdata');
    if (location && !existsSync(join(location, 'PG_VERSION'))) await initializeDataDirectory(location);

    const preferred = inMemory ? undefined : resolve(dataDir, 'socket');
    const usePreferred = preferred !== undefined && fitsSocketPath(preferred);
    const socketDirectory = usePreferred ? ownerOnlyDirectory(preferred) : temporarySocketDirectory();
    const socketPath = join(socketDirectory, `.s.PGSQL.${EmbeddedPostgres.SOCKET_PORT}`);
    const startParams = [...PGlite.defaultStartParams, ...Object.entries(EmbeddedPostgres.SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
    const data: EmbeddedThreadData = { location, socketPath, startParams, maxConnections: EmbeddedPostgres.MAX_CONNECTIONS, faultFile: location ? faultFile : undefined };
    const thread = new Worker(workerFile(import.meta.url, 'embedded-postgres.worker.js'), { workerData: data });
    try {
      const started = await startMessageOf(thread);
      if (!started.ready) throw new Error(started.message);
      return new EmbeddedPostgres(thread, socketDirectory, !usePreferred, data);
    } catch (error) {
      await thread.terminate();
      if (!usePreferred) rmSync(socketDirectory, { recursive: true, force: true });
      throw error;
    }
  }

  /** A connection string without a TCP host: `pg` connects to the socket in `host=<directory>`. */
  get url(): string {
    return `postgres:///postgres?user=postgres&host=${encodeURIComponent(this.socketDirectory)}&port=${EmbeddedPostgres.SOCKET_PORT}`;
  }

  get socketPath(): string {
    return join(this.socketDirectory, `.s.PGSQL.${EmbeddedPostgres.SOCKET_PORT}`);
  }

  /** fsyncs that reached the disk so far ({@link DurableNodeFS}); null in memory. For tests and benchmarks. */
  syncs(): Promise<number | null> {
    return this.ask('syncs');
  }

  /**
   * Resolves once no client is connected. The server refuses a connection beyond MAX_CONNECTIONS, and
   * a client that has ended is only forgotten when its socket's close event has run: whoever opens a
   * new connection right after closing one waits here first.
   */
  async whenNoConnections(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.ask('connections')) !== 0) {
      if (Date.now() > deadline) throw new Error(`the embedded database still has a connection after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.whenServing();
    try {
      if (!this.ended && this.thread !== null) await this.ask('stop');
    } finally {
      await this.thread?.terminate();
      if (this.temporaryDirectory) rmSync(this.socketDirectory, { recursive: true, force: true });
      else rmSync(this.socketPath, { force: true });
    }
  }

  private ask(op: EmbeddedRequest['op']): Promise<number | null> {
    if (this.ended) return Promise.reject(this.ended);
    if (this.outageState !== null || this.thread === null) return Promise.reject(new Error(`the embedded database is stopped: ${this.outageState?.cause ?? 'restarting'}`));
    const thread = this.thread;
    const id = this.nextRequest++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      thread.postMessage({ id, op } satisfies EmbeddedRequest);
    });
  }
}

/**
 * The thread's first message, which says whether the database started; rejects when the thread fails
 * or ends first. Its listeners are removed once it settles (those of the running thread take over).
 */
async function startMessageOf(thread: Worker): Promise<EmbeddedStart> {
  const settled = new AbortController();
  try {
    return await Promise.race([
      once(thread, 'message', { signal: settled.signal }).then(([message]) => message as EmbeddedStart),
      once(thread, 'exit', { signal: settled.signal }).then(([code]) => {
        throw new Error(`the embedded database's thread ended while starting (exit code ${code})`);
      }),
    ]);
  } finally {
    settled.abort();
  }
}

/**
 * Creates a new data directory — a copy of the build's empty one (src/database/pgdata-template.ts),
 * or else by initdb in a short-lived child process — then fsyncs its files. In this process,
 * initdb's WebAssembly instance would leave ~300 MB resident for the process's lifetime
 * (WebAssembly memory never shrinks, and closing PGlite does not give it back).
 * It is built beside `location` and renamed into place, so an interrupted start leaves no
 * half-made data directory behind (the next start builds it again).
 */
async function initializeDataDirectory(location: string): Promise<void> {
  if (existsSync(location) && readdirSync(location).length > 0) {
    throw new Error(`${location} is not empty but holds no PostgreSQL data directory (no PG_VERSION); move it away or choose another DATA_DIR`);
  }
  const building = `${location}.initdb`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(dirname(building), { recursive: true });
  const template = builtTemplate();
  try {
    if (template) cpSync(template, building, { recursive: true });
    else {
      mkdirSync(building);
      await initdb(building);
    }
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`could not initialise the embedded database in ${location}${stderr ? `: ${stderr}` : ''}`, { cause: error });
  }
  // PGlite runs initdb with fsync off, and NODEFS could not have fsynced anyway (see DurableNodeFS).
  fsyncTree(building);
  rmSync(location, { recursive: true, force: true }); // an empty directory, checked above
  renameSync(building, location);
  fsyncTree(dirname(location), false);
}

function fsyncTree(path: string, recursive = true): void {
  if (lstatSync(path).isDirectory()) {
    if (recursive) for (const name of readdirSync(path)) fsyncTree(join(path, name));
  } else if (!lstatSync(path).isFile()) {
    return;
  }
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fitsSocketPath(directory: string): boolean {
  return Buffer.byteLength(join(directory, `.s.PGSQL.${EmbeddedPostgres.SOCKET_PORT}`)) <= EmbeddedPostgres.MAX_SOCKET_PATH_BYTES;
}

/** `directory`, created if need be, made mode 0700; refused if it is a symlink or someone else's. */
function ownerOnlyDirectory(directory: string): string {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const stats = lstatSync(directory);
  if (!stats.isDirectory()) throw new Error(`${directory} must be a directory for the embedded database's socket`);
  if (process.getuid && stats.uid !== process.getuid()) {
    throw new Error(`${directory} belongs to another user (uid ${stats.uid}); the embedded database's socket must be private`);
  }
  chmodSync(directory, 0o700);
  return directory;
}

/** A fresh directory of mode 0700 (mkdtemp's) under the system's temporary directory. */
function temporarySocketDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'tabula-'));
  if (!fitsSocketPath(directory)) {
    rmSync(directory, { recursive: true, force: true });
    throw new Error(`the temporary directory ${tmpdir()} has too long a path for a Unix socket; set TMPDIR to a shorter one`);
  }
  return directory;
}
