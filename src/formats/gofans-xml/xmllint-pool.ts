import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface XmllintFile {
  fileName: string;
  contents: string;
}

export interface XmllintJob {
  files: XmllintFile[];
  args: string[];
  initialMemoryPages: number;
  maxMemoryPages: number;
}

export interface XmllintRun {
  exitCode: number;
  stderr: string;
}

interface Waiting {
  job: XmllintJob;
  resolve: (run: XmllintRun) => void;
  reject: (error: Error) => void;
}

/** Jobs a worker holds at once: enough to overlap instantiation with running, few enough to bound memory. */
const JOBS_PER_WORKER = 2;
const WORKER_URL = new URL('./xmllint-worker.mjs', import.meta.url);

/**
 * Runs xmllint jobs on a few long-lived worker threads (xmllint-worker.mjs), off the event loop.
 * A worker that dies fails only its own jobs; the next job starts a new one. Idle workers do not
 * keep the process alive.
 */
export class XmllintPool {
  private readonly workers: PooledWorker[] = [];
  private readonly queue: Waiting[] = [];

  constructor(private readonly size: number) {}

  run(job: XmllintJob): Promise<XmllintRun> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.freeWorker();
      if (!worker) return;
      worker.start(this.queue.shift()!);
    }
  }

  private freeWorker(): PooledWorker | undefined {
    for (let i = this.workers.length - 1; i >= 0; i--) {
      if (this.workers[i].dead) this.workers.splice(i, 1);
    }
    const idlest = this.workers.reduce<PooledWorker | undefined>((best, w) => (!best || w.load < best.load ? w : best), undefined);
    if (idlest && (idlest.load === 0 || this.workers.length >= this.size) && idlest.load < JOBS_PER_WORKER) return idlest;
    if (this.workers.length < this.size) {
      const created = new PooledWorker(() => this.dispatch());
      this.workers.push(created);
      return created;
    }
    return undefined;
  }
}

class PooledWorker {
  dead = false;
  private readonly worker = new Worker(WORKER_URL);
  private readonly running = new Map<number, Waiting>();
  private nextId = 0;

  constructor(private readonly onSettled: () => void) {
    this.worker.unref();
    this.worker.on('message', (message: { id: number; exitCode: number; stderr: string }) => {
      const waiting = this.running.get(message.id);
      if (!waiting) return;
      this.running.delete(message.id);
      this.settle();
      waiting.resolve({ exitCode: message.exitCode, stderr: message.stderr });
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the xmllint worker exited with code ${code}`)));
  }

  get load(): number {
    return this.running.size;
  }

  start(waiting: Waiting): void {
    const id = this.nextId++;
    this.running.set(id, waiting);
    this.worker.ref();
    this.worker.postMessage({ kind: 'tabula-xmllint', id, ...waiting.job });
  }

  private settle(): void {
    if (this.running.size === 0) this.worker.unref();
    this.onSettled();
  }

  private fail(error: Error): void {
    if (this.dead) return;
    this.dead = true;
    const failed = [...this.running.values()];
    this.running.clear();
    void this.worker.terminate();
    for (const waiting of failed) waiting.reject(error);
    this.onSettled();
  }
}

/**
 * One validator thread per core, at most four: a GoFans upload spends most of its time in its two
 * validations, while the event loop's share (request, replay, SQL) is small.
 */
export const xmllintPool = new XmllintPool(Math.max(1, Math.min(4, availableParallelism())));
