/** What the embedded database's thread is started with. */
export interface EmbeddedThreadData {
  /** The data directory (pgdata); undefined: in memory. */
  readonly location: string | undefined;
  readonly socketPath: string;
  readonly startParams: readonly string[];
  readonly maxConnections: number;
  /** Fault tests only: while this file exists, the database's writes fail with ENOSPC (DurableNodeFS). */
  readonly faultFile: string | undefined;
}

/** The thread's first message: the socket serves, or why it does not. */
export type EmbeddedStart = { readonly ready: true } | { readonly ready: false; readonly message: string };

/** Asked of the thread: connected clients, fsyncs that reached the disk (null in memory), or to stop. */
export interface EmbeddedRequest {
  readonly id: number;
  readonly op: 'connections' | 'syncs' | 'stop';
}

export type EmbeddedReply = { readonly id: number; readonly value: number | null } | { readonly id: number; readonly error: string };

/** Told by the running thread, unasked: PostgreSQL PANICked (a full disk under the WAL, most often) and answers no more. */
export interface EmbeddedPanic {
  readonly panic: string;
}
