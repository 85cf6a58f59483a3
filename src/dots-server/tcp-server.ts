import { createServer, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ConnectionBudget } from './connection-budget.js';
import type { DotsLobby, Session } from './lobby.js';
import { BadRequest, FramerEvent, RequestFramer } from './protocol.js';

export interface TransportLimits {
  /** Longest request line, in bytes. */
  readonly maxLine: number;
  /** A connection without a valid request for this long, while its player is in no running game, is closed. */
  readonly idleTimeoutMs: number;
  /** Output not yet taken by the client plus requests waiting for their answer, in bytes. */
  readonly maxPendingBytes: number;
}

/**
 * One client of the Dots protocol on any byte stream (a TCP socket, a WebSocket): frames its
 * requests, answers them one at a time in order, closes it when it idles or falls behind.
 */
export class DotsConnection {
  private readonly framer: RequestFramer;
  private readonly queue: FramerEvent[] = [];
  /** Rough bytes of the queued requests (a request line is at most maxLine). */
  private queuedBytes = 0;
  private busy = false;
  private closed = false;
  private idle: NodeJS.Timeout | null = null;
  readonly session: Session;

  constructor(
    private readonly lobby: DotsLobby,
    private readonly limits: TransportLimits,
    private readonly io: { write(text: string): void; end(): void; destroy(): void; readonly pendingBytes: number },
  ) {
    this.framer = new RequestFramer(limits.maxLine);
    this.session = lobby.open({ send: (text) => this.send(text), close: () => this.end() });
    this.armIdle();
  }

  /** Bytes from the client. */
  receive(chunk: Buffer): void {
    if (this.closed) return;
    for (const event of this.framer.push(chunk)) {
      this.queue.push(event);
      this.queuedBytes += this.limits.maxLine;
    }
    if (this.queuedBytes > this.limits.maxPendingBytes) return this.drop();
    void this.drain();
  }

  /** The stream is gone. */
  gone(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.idle !== null) clearTimeout(this.idle);
    this.lobby.close(this.session);
  }

  private send(text: string): void {
    if (this.closed) return;
    this.io.write(text);
    // A client that does not read its answers and pushes is dropped before it costs memory.
    if (this.io.pendingBytes > this.limits.maxPendingBytes) this.drop();
  }

  private async drain(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      while (!this.closed && this.queue.length > 0) {
        const event = this.queue.shift()!;
        this.queuedBytes -= this.limits.maxLine;
        if (event.kind === 'bad') {
          this.lobby.refuse(this.session, event.error);
          continue;
        }
        this.armIdle();
        await this.lobby.handle(this.session, event.request);
      }
    } finally {
      this.busy = false;
    }
  }

  /** Restarts the idle timer; when it fires, a player seated in a running game is left alone. */
  private armIdle(): void {
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.closed) return;
      if (this.lobby.isPlaying(this.session)) return this.armIdle();
      this.send(new BadRequest('idle_timeout', `no request for ${this.limits.idleTimeoutMs} ms`).answer());
      this.end();
    }, this.limits.idleTimeoutMs);
    this.idle.unref();
  }

  private end(): void {
    if (this.closed) return;
    this.gone();
    this.io.end();
  }

  private drop(): void {
    if (this.closed) return;
    this.gone();
    this.io.destroy();
  }
}

/** The Dots protocol over TCP (node:net): a connection is one client, the design's IP:PORT. */
export class DotsTcpServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly lobby: DotsLobby,
    private readonly limits: TransportLimits,
    /** Shared with the WebSocket bridge: DOTS_MAX_CONNECTIONS counts both. */
    private readonly budget: ConnectionBudget,
  ) {}

  /** Listens; resolves with the port bound (useful with port 0). */
  listen(port: number, host: string): Promise<number> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops accepting and closes every connection. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private accept(socket: Socket): void {
    if (!this.budget.take()) {
      socket.destroy();
      return;
    }
    socket.once('close', () => this.budget.release());
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const connection = new DotsConnection(this.lobby, this.limits, {
      write: (text) => void socket.write(text),
      end: () => void socket.end(),
      destroy: () => void socket.destroy(),
      get pendingBytes() {
        return socket.writableLength;
      },
    });
    socket.on('data', (chunk: Buffer) => connection.receive(chunk));
    // A reset or a write to a closed peer is only the client leaving.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      connection.gone();
    });
  }
}
