import { chmodSync, rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { answeringInChunks } from './answer-chunks.js';
import { DurableNodeFS } from './durable-node-fs.js';
import { watchingForPanic } from './panic-watch.js';
import { gatherOnEveryConnection } from './whole-messages.js';
import type { EmbeddedPanic, EmbeddedReply, EmbeddedRequest, EmbeddedStart, EmbeddedThreadData } from './embedded-postgres-messages.js';

/**
 * The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) and the Unix
 * socket server in front of it. Every statement runs here, so a long one never holds the archive's
 * event loop, and the database works while the event loop writes answers. The archive talks to it
 * over the socket like to any server; the thread's messages only start it, stop it and report.
 */
const { location, socketPath, startParams, maxConnections, faultFile } = workerData as EmbeddedThreadData;
const port = parentPort!;
const fs = location ? new DurableNodeFS(location, faultFile) : undefined;
let db: PGlite | undefined;
try {
  db = await PGlite.create({ fs, extensions: { pg_trgm }, startParams: [...startParams] });
  // A socket left by a process that was killed: DATA_DIR's lock says no live process serves it.
  rmSync(socketPath, { force: true });
  // After a PANIC this instance answers nothing again: the archive's side replaces the thread.
  const watched = watchingForPanic(db, (message) => port.postMessage({ panic: message } satisfies EmbeddedPanic));
  const server = new PGLiteSocketServer({ db: answeringInChunks(watched), path: socketPath, maxConnections });
  await server.start();
  gatherOnEveryConnection(server);
  chmodSync(socketPath, 0o600);
  const opened = db;
  port.on('message', (request: EmbeddedRequest) => {
    answer(request, async () => {
      if (request.op === 'connections') return server.getStats().activeConnections;
      if (request.op === 'syncs') return fs?.syncs ?? null;
      await server.stop();
      await opened.close();
      return null;
    }).then(() => {
      // Stopped: the port is all that keeps the thread alive.
      if (request.op === 'stop') port.close();
    });
  });
  port.postMessage({ ready: true } satisfies EmbeddedStart);
} catch (error) {
  await db?.close().catch(() => undefined);
  port.postMessage({ ready: false, message: error instanceof Error ? error.message : String(error) } satisfies EmbeddedStart);
  port.close();
}

async function answer(request: EmbeddedRequest, work: () => Promise<number | null>): Promise<void> {
  let reply: EmbeddedReply;
  try {
    reply = { id: request.id, value: await work() };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
}

