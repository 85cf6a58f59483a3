import type { PGlite } from '@electric-sql/pglite';
import { answeringInChunks } from '../../src/database/answer-chunks.js';

/**
 * The embedded database's answers reach its socket in chunks of 64 KB rather than a write per
 * protocol message. PGlite hands each message over as a view of its memory, reused afterwards: the
 * chunks must hold copies, in order, with nothing lost or repeated.
 */
describe('answeringInChunks', () => {
  /** A stand-in for PGlite that answers with `messages`, each through one reused buffer. */
  const answering = (messages: Uint8Array[]) => {
    const memory = new Uint8Array(200 * 1024);
    return {
      inTransaction: false,
      isInTransaction() {
        return this.inTransaction;
      },
      async execProtocolRawStream(_message: Uint8Array, { onRawData }: { onRawData: (data: Uint8Array) => void }) {
        for (const message of messages) {
          memory.set(message);
          onRawData(memory.subarray(0, message.length));
          memory.fill(0xee, 0, message.length);
        }
      },
    };
  };
  const rows = (count: number, size: number) =>
    Array.from({ length: count }, (_, i) => Uint8Array.from({ length: size }, (_, j) => (i * 7 + j) % 251));

  it.each([
    ['3,000 rows of 100 bytes', rows(3000, 100)],
    ['a message larger than a chunk among small ones', [...rows(5, 30), ...rows(1, 150 * 1024), ...rows(5, 30)]],
    ['no data at all', []],
  ])('passes on %s in order, in chunks of 64 KB at most unless one message is larger', async (_, messages) => {
    const received: Buffer[] = [];
    const db = answeringInChunks(answering(messages) as unknown as PGlite);
    await db.execProtocolRawStream(new Uint8Array(), { onRawData: (data) => received.push(Buffer.from(data)) });
    expect(Buffer.concat(received)).toEqual(Buffer.concat(messages));
    const largest = Math.max(0, ...messages.map((m) => m.length));
    for (const chunk of received) expect(chunk.length).toBeLessThanOrEqual(Math.max(64 * 1024, largest));
    // 655 rows of 100 bytes fit in 64 KB: 3,000 rows make 5 writes, not 3,000.
    if (messages.length === 3000) expect(received.length).toBe(5);
  });

  it('hands on chunks that stay as they were while later answers are gathered (the socket keeps them until written)', async () => {
    const first = rows(40, 100);
    const second = rows(40, 100).map((row) => row.map((byte) => 255 - byte));
    const answers = [answering(first), answering(second)];
    let calls = 0;
    const stand = { ...answering([]), execProtocolRawStream: (message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }) => answers[calls++].execProtocolRawStream(message, options) };
    const db = answeringInChunks(stand as unknown as PGlite);
    const kept: Uint8Array[] = [];
    // Kept as given, not copied, as a socket's write queue keeps them.
    await db.execProtocolRawStream(new Uint8Array(), { onRawData: (data) => kept.push(data) });
    const later: Uint8Array[] = [];
    await db.execProtocolRawStream(new Uint8Array(), { onRawData: (data) => later.push(data) });
    expect(Buffer.concat(kept)).toEqual(Buffer.concat(first));
    expect(Buffer.concat(later)).toEqual(Buffer.concat(second));
  });

  it('leaves everything else as PGlite has it, bound to PGlite', () => {
    const stand = answering([]);
    const db = answeringInChunks(stand as unknown as PGlite);
    stand.inTransaction = true;
    expect(db.isInTransaction()).toBe(true);
  });
});
