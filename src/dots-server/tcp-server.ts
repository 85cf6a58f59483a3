import { createServer, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createSecureContext, TLSSocket } from 'node:tls';
import type { SecureContext } from 'node:tls';
import { Clock, systemClock, Timer } from './clock.js';
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
  /** A connection not logged in for this long (from its start or its LGT) is closed; unset: never. */
  readonly loginTimeoutMs?: number;
}

/** The certificate and key the TCP protocol is served with over TLS (DOTS_TLS_CERT, DOTS_TLS_KEY: PEM). */
export interface TlsFiles {
  readonly cert: Buffer;
  readonly key: Buffer;
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
  /** Runs out unless the connection logs in (limits.loginTimeoutMs), on the injected clock. */
  private loginTimer: Timer | null = null;
  readonly session: Session;

  constructor(
    private readonly lobby: DotsLobby,
    private readonly limits: TransportLimits,
    private readonly io: { write(text: string): void; end(): void; destroy(): void; readonly pendingBytes: number },
    /** The client's address, for the per-address limits. */
    address = '',
    private readonly clock: Clock = systemClock,
  ) {
    this.framer = new RequestFramer(limits.maxLine);
    this.session = lobby.open({ send: (text) => this.send(text), close: () => this.end() }, undefined, address);
    this.armIdle();
    this.watchLogin();
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
    this.loginTimer?.cancel();
    this.loginTimer = null;
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
        this.watchLogin();
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

  /**
   * While the connection is not logged in, a timer of limits.loginTimeoutMs runs (started when it
   * opens, or when it logs out); when it runs out, `401 login_timeout` and the connection is closed.
   */
  private watchLogin(): void {
    const timeout = this.limits.loginTimeoutMs;
    if (timeout === undefined || this.closed) return;
    if (this.session.login !== null) {
      this.loginTimer?.cancel();
      this.loginTimer = null;
      return;
    }
    this.loginTimer ??= this.clock.schedule(timeout, () => {
      this.loginTimer = null;
      if (this.closed) return;
      if (this.session.login !== null) return;
      this.send(new BadRequest('login_timeout', `not logged in within ${timeout} ms`).answer());
      this.end();
    });
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

/**
 * The Dots protocol over TCP (node:net): a connection is one client, the design's IP:PORT. With
 * `tls`, every connection is TLS (node:tls over the accepted socket: the connection takes its place
 * in the budget before its handshake, and the login timeout closes one whose handshake never ends).
 */
export class DotsTcpServer {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly secureContext: SecureContext | null;

  constructor(
    private readonly lobby: DotsLobby,
    private readonly limits: TransportLimits,
    /** Shared with the WebSocket bridge: DOTS_MAX_CONNECTIONS (and the per-address cap) counts both. */
    private readonly budget: ConnectionBudget,
    tls: TlsFiles | null = null,
    private readonly clock: Clock = systemClock,
  ) {
    this.secureContext = tls === null ? null : createSecureContext({ cert: tls.cert, key: tls.key });
  }

  /** Whether connections are served over TLS. */
  get secure(): boolean {
    return this.secureContext !== null;
  }

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
    const address = socket.remoteAddress ?? '';
    // A reset or a write to a closed peer is only the client leaving.
    socket.on('error', () => undefined);
    const refused = this.budget.take(address);
    if (refused !== null) {
      // Every place taken: closed at once, as cheaply as can be. The address's places taken: told why
      // (in clear text only; a TLS client would need a handshake first).
      if (refused === 'address' && this.secureContext === null) {
        socket.end(new BadRequest('too_many_connections', `at most ${this.budget.maxPerAddress} open from one address`).answer());
        socket.setTimeout(5000, () => socket.destroy());
      } else {
        socket.destroy();
      }
      return;
    }
    socket.once('close', () => this.budget.release(address));
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const stream: Socket = this.secureContext === null ? socket : new TLSSocket(socket, { isServer: true, secureContext: this.secureContext });
    let secured = this.secureContext === null;
    if (!secured) stream.once('secure', () => void (secured = true));
    const connection = new DotsConnection(
      this.lobby,
      this.limits,
      {
        write: (text) => void stream.write(text),
        // Before its handshake, a TLS connection has nothing to end cleanly.
        end: () => void (secured ? stream.end() : stream.destroy()),
        destroy: () => void stream.destroy(),
        get pendingBytes() {
          return stream.writableLength;
        },
      },
      address,
      this.clock,
    );
    if (stream !== socket) {
      // A failed handshake, or a reset: the connection is gone.
      stream.on('error', () => socket.destroy());
      stream.on('close', () => socket.destroy());
    }
    stream.on('data', (chunk: Buffer) => connection.receive(chunk));
    socket.on('close', () => {
      this.sockets.delete(socket);
      connection.gone();
    });
  }
}
