import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import { ProblemException } from './problem-codes.js';

/**
 * Whether the work of the request being served is still wanted. Every request runs in a context
 * holding a signal that aborts when its connection closes before the answer was sent (and, inside
 * {@link withDeadline}, when its deadline passes); work done for it — an analysis on a thread, a
 * statement on a PostgreSQL server, a search's loop — reads {@link clientSignal} and stops rather
 * than finish for nobody. Carried by AsyncLocalStorage, so no handler or service passes it along.
 * The signal's reason is the ProblemException the request ends with.
 */
const requests = new AsyncLocalStorage<AbortSignal>();

/** The client closed the connection before the answer was ready: its work was ended. */
export class RequestCancelled extends ProblemException {
  constructor() {
    super(499, 'request.cancelled', 'the client closed the connection before the answer was ready; its work was ended');
  }
}

/** Express middleware: the request's handlers run with its signal. */
export function watchClients(_request: Request, response: Response, next: NextFunction): void {
  const gone = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) gone.abort(new RequestCancelled());
  });
  requests.run(gone.signal, next);
}

/** The signal of the request being served, if any (none outside a request: imports, the Dots server). */
export function clientSignal(): AbortSignal | undefined {
  return requests.getStore();
}

/** What a request whose signal aborted ends with: the signal's reason (gone, past its deadline). */
export function endingOf(signal: AbortSignal): ProblemException {
  return signal.reason instanceof ProblemException ? signal.reason : new RequestCancelled();
}

/** Throws what the request ends with when its client has gone or its deadline has passed. */
export function throwIfUnwanted(): void {
  const signal = clientSignal();
  if (signal?.aborted) throw endingOf(signal);
}

/**
 * Runs `work` under a deadline: past `ms`, its analyses and its statements on a PostgreSQL server are
 * cancelled (through the signal) and the request fails with `timeout` at once, whether or not the
 * work has stopped yet (PGlite has no way to stop a statement: it runs on, in the background).
 */
export async function withDeadline<T>(ms: number, timeout: () => ProblemException, work: () => Promise<T>): Promise<T> {
  const deadline = new AbortController();
  const client = clientSignal();
  const signal = client ? AbortSignal.any([client, deadline.signal]) : deadline.signal;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const reason = timeout();
      deadline.abort(reason);
      reject(reason);
    }, ms);
  });
  try {
    return await Promise.race([requests.run(signal, work), late]);
  } finally {
    clearTimeout(timer);
  }
}
