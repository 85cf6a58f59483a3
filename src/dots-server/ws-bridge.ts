import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import { Clock, systemClock } from './clock.js';
import type { ConnectionBudget } from './connection-budget.js';
import type { DotsLobby } from './lobby.js';
import proxyAddress from 'proxy-addr';
import { DotsConnection, TransportLimits } from './tcp-server.js';

/** Who may open the bridge, and how its clients' addresses are read. */
export interface BridgeAccess {
  /**
   * The origins whose pages may open it besides the archive's own (an Origin whose host name is
   * the request's Host's): DOTS_WS_ORIGINS; `*` any. A request without Origin (not a browser) is let in.
   */
  readonly origins: readonly string[];
  /** Proxies in front of the archive whose X-Forwarded-For names the client (TRUST_PROXY_HOPS). */
  readonly trustProxyHops: number;
}

const ANY_ORIGIN: BridgeAccess = { origins: ['*'], trustProxyHops: 0 };

/**
 * The Dots protocol for browsers: a WebSocket at a path of the HTTP server carries the same text as
 * a TCP connection — the client's messages are read as one byte stream (a message may hold a
 * request, several, or a part of one), and every answer or push goes out as one text message.
 */
export class DotsWebSocketBridge {
  private readonly sockets: WebSocketServer;
  private server: Server | null = null;

  /** Which proxies' X-Forwarded-For is believed (TRUST_PROXY_HOPS). */
  private readonly trust: (address: string, hop: number) => boolean;

  constructor(
    private readonly lobby: DotsLobby,
    private readonly limits: TransportLimits,
    private readonly path: string,
    /** Shared with the TCP listener: DOTS_MAX_CONNECTIONS (and the per-address cap) counts both. */
    private readonly budget: ConnectionBudget,
    private readonly access: BridgeAccess = ANY_ORIGIN,
    private readonly clock: Clock = systemClock,
  ) {
    // As Express compiles a hop count for request.ip: the first `hops` addresses of the chain are proxies.
    this.trust = (_address, hop) => hop < access.trustProxyHops;
    // A message larger than a few request lines is no client of this protocol.
    this.sockets = new WebSocketServer({ noServer: true, maxPayload: Math.max(4096, limits.maxLine * 8) });
  }

  attach(server: Server): void {
    this.server = server;
    server.on('upgrade', this.upgrade);
  }

  /** Closes every WebSocket of the bridge. */
  close(): void {
    this.server?.off('upgrade', this.upgrade);
    this.server = null;
    for (const socket of this.sockets.clients) socket.terminate();
    this.sockets.close();
  }

  // Only this path is the bridge's; other upgrades are left to whoever else listens for them.
  private readonly upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== this.path) return;
    socket.on('error', () => undefined);
    if (!this.originAllowed(request)) return refuse(socket, 403, 'Forbidden', 'this origin may not open the Dots bridge (DOTS_WS_ORIGINS)');
    const address = this.clientAddress(request);
    const refused = this.budget.take(address);
    if (refused === 'address') return refuse(socket, 429, 'Too Many Requests', `at most ${this.budget.maxPerAddress} Dots connections from one address`);
    if (refused !== null) {
      socket.destroy();
      return;
    }
    // The upgraded connection's own socket: its place is given back however the connection ends,
    // a failed handshake included.
    socket.once('close', () => this.budget.release(address));
    this.sockets.handleUpgrade(request, socket, head, (ws) => this.accept(ws, address));
  };

  /** Whether the request's Origin (if any) may open the bridge. */
  private originAllowed(request: IncomingMessage): boolean {
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    const { origins } = this.access;
    if (origins.includes('*') || origins.includes(origin)) return true;
    // The archive's own pages: the same host name as the request's Host (a proxy in front may
    // forward the Host without its port, as nginx's $host does).
    const host = request.headers.host;
    if (host === undefined) return false;
    try {
      return new URL(origin).hostname === new URL(`http://${host}`).hostname;
    } catch {
      return false;
    }
  }

  /** The client's address: the socket's, or, behind TRUST_PROXY_HOPS proxies, the one X-Forwarded-For names that many hops back. */
  private clientAddress(request: IncomingMessage): string {
    // Read as Express reads request.ip under TRUST_PROXY_HOPS (proxy-addr, which Express uses).
    return proxyAddress(request, this.trust);
  }

  private accept(ws: WebSocket, address: string): void {
    const connection = new DotsConnection(
      this.lobby,
      this.limits,
      {
        write: (text) => ws.send(text),
        end: () => ws.close(1000),
        destroy: () => ws.terminate(),
        get pendingBytes() {
          return ws.bufferedAmount;
        },
      },
      address,
      this.clock,
    );
    ws.on('message', (data: RawData) => connection.receive(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)));
    ws.on('error', () => undefined);
    ws.on('close', () => connection.gone());
  }
}

/** Answers an upgrade with an HTTP error and closes the socket. */
function refuse(socket: Duplex, status: number, reason: string, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`, () => socket.destroy());
}
