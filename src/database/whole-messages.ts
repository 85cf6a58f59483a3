import type { Server, Socket } from 'node:net';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** The protocol version a StartupMessage gives (3.0); every message before it has no type byte. */
const PROTOCOL_3_0 = 196608;

/**
 * Gathers what a client sends into whole PostgreSQL protocol messages. The socket server
 * (`@electric-sql/pglite-socket` 0.2.17) joins everything it has received to each new chunk until a
 * message is whole: a message of n bytes, arriving in chunks of c, costs it n²/2c bytes of copying
 * (a 40 MB upload's row: gigabytes, on the database's thread, which then serves nobody). Handed only
 * whole messages, it copies each byte once; this copies a message's bytes once when it is whole.
 */
export class MessageGatherer {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes the first message not yet handed on needs, once its length is known. */
  private needed = 0;
  private started = false;

  constructor(private readonly deliver: (messages: Buffer) => void) {}

  push(data: Buffer): void {
    this.chunks.push(data);
    this.buffered += data.length;
    if (this.needed === 0 || this.buffered >= this.needed) this.handOn();
  }

  /** Hands on the whole messages at the front, keeping the bytes of an unfinished one. */
  private handOn(): void {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.buffered);
    let whole = 0;
    let needed = 0;
    for (;;) {
      const length = this.lengthAt(all, whole);
      if (length === undefined) break;
      if (length < 4) {
        // Not a message: the socket server answers it as it would have (no bytes are held back).
        whole = all.length;
        break;
      }
      if (all.length - whole < length) {
        needed = length;
        break;
      }
      if (!this.started && all.readInt32BE(whole + 4) === PROTOCOL_3_0) this.started = true;
      whole += length;
    }
    const rest = all.subarray(whole);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    this.needed = needed;
    if (whole > 0) this.deliver(all.subarray(0, whole));
  }

  /** The length of the message at `offset` (its type byte included), or undefined while too few bytes say it. */
  private lengthAt(bytes: Buffer, offset: number): number | undefined {
    // Before the StartupMessage (and an SSL or GSS request that may precede it): length, then a code.
    if (!this.started) return bytes.length - offset >= 8 ? bytes.readInt32BE(offset) : undefined;
    return bytes.length - offset >= 5 ? 1 + bytes.readInt32BE(offset + 1) : undefined;
  }
}

/** Makes `socket` emit its data as whole protocol messages. */
export function gatherWholeMessages(socket: Socket): void {
  const emit = socket.emit.bind(socket);
  const gatherer = new MessageGatherer((messages) => emit('data', messages));
  socket.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== 'data') return emit(event, ...args);
    gatherer.push(args[0] as Buffer);
    return true;
  }) as Socket['emit'];
}

/**
 * Every connection the started socket server accepts gets its data as whole messages. The server
 * hands a new socket to its handler on the next turn of the event loop, so this listener, called
 * in the same turn, comes first. It reaches the server's listening socket through a field the
 * package does not publish: should a version of it lack the field, this fails at start (and every
 * test on the embedded database with it) rather than quietly copying uploads quadratically again.
 */
export function gatherOnEveryConnection(server: PGLiteSocketServer): void {
  const listening = (server as unknown as { server?: Server }).server;
  if (typeof listening?.on !== 'function') throw new Error('the PGlite socket server has no listening socket to gather messages on (has @electric-sql/pglite-socket changed?)');
  listening.on('connection', gatherWholeMessages);
}
