/** What the embedded database's thread is started with. */
export interface EmbeddedThreadData {
  /** The data directory (pgdata); undefined: in memory. */
  readonly location: string | undefined;
  readonly socketPath: string;
  readonly startParams: readonly string[];
  readonly maxConnections: number;
}

/** The thread's first message: the socket serves, or why it does not. */
export type EmbeddedStart = { readonly ready: true } | { readonly ready: false; readonly message: string };

/** Asked of the thread: connected clients, fsyncs that reached the disk (null in memory), or to stop. */
export interface EmbeddedRequest {
  readonly id: number;
  readonly op: 'connections' | 'syncs' | 'stop';
}

export type EmbeddedReply = { readonly id: number; readonly value: number | null } | { readonly id: number; readonly error: string };
