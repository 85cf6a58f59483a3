import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import type { ConnectionBudget } from './connection-budget.js';
import type { DotsLobby } from './lobby.js';
import { DotsConnection, TransportLimits } from './tcp-server.js';

/**
 * The Dots protocol for browsers: a WebSocket at a path of the HTTP server carries the same text as
 * a TCP connection — the client's messages are read as one byte stream (a message may hold a
 * request, several, or a part of one), and every answer or push goes out as one text message.
 */
export class DotsWebSocketBridge {
  private readonly sockets: WebSocketServer;
  private server: Server | null = null;

  constructor(
    private readonly lobby: DotsLobby,
    private readonly limits: TransportLimits,
    private readonly path: string,
    /** Shared with the TCP listener: DOTS_MAX_CONNECTIONS counts both. */
    private readonly budget: ConnectionBudget,
  ) {
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
    if (!this.budget.take()) {
      socket.destroy();
      return;
    }
    // The upgraded connection's own socket: its place is given back however the connection ends,
    // a failed handshake included.
    socket.once('close', () => this.budget.release());
    this.sockets.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  };

  private accept(ws: WebSocket): void {
    const connection = new DotsConnection(this.lobby, this.limits, {
      write: (text) => ws.send(text),
      end: () => ws.close(1000),
      destroy: () => ws.terminate(),
      get pendingBytes() {
        return ws.bufferedAmount;
      },
    });
    ws.on('message', (data: RawData) => connection.receive(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)));
    ws.on('error', () => undefined);
    ws.on('close', () => connection.gone());
  }
}
