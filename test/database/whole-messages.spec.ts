import { MessageGatherer } from '../../src/database/whole-messages.js';

/** Messages written by hand after the PostgreSQL frontend protocol (version 3.0). */
function untyped(code: number, payload = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + payload.length, 0);
  head.writeInt32BE(code, 4);
  return Buffer.concat([head, payload]);
}
const startup = untyped(196608, Buffer.from('user\0postgres\0database\0template1\0\0'));
const sslRequest = untyped(80877103);
function typed(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(4 + payload.length, 1);
  return Buffer.concat([head, payload]);
}
const query = (sql: string) => typed('Q', Buffer.from(`${sql}\0`));

function gather(chunks: Buffer[]): Buffer[] {
  const delivered: Buffer[] = [];
  const gatherer = new MessageGatherer((messages) => delivered.push(Buffer.from(messages)));
  for (const chunk of chunks) gatherer.push(chunk);
  return delivered;
}

/** `bytes` cut into pieces of `size`. */
const cut = (bytes: Buffer, size: number) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

describe('MessageGatherer', () => {
  it('hands on a message only once it is whole, and all of it at once', () => {
    const bind = typed('B', Buffer.alloc(3 * 1024 * 1024, 7));
    const delivered = gather([startup, ...cut(bind, 64 * 1024)]);
    // Compared with Buffer#equals: a deep equality of 3 MB takes the test runner seconds.
    expect(delivered.map((messages) => messages.length)).toEqual([startup.length, bind.length]);
    expect(delivered[0].equals(startup) && delivered[1].equals(bind)).toBe(true);
  });

  it('hands on whole messages that came together at once, and keeps an unfinished one', () => {
    const first = query('SELECT 1');
    const second = query('SELECT 2');
    const wire = Buffer.concat([startup, first, second]);
    // The startup message, the first query and three bytes of the second in one chunk; the rest after.
    const split = startup.length + first.length + 3;
    expect(gather([wire.subarray(0, split), wire.subarray(split)])).toEqual([Buffer.concat([startup, first]), second]);
  });

  it('reads the length of untyped messages until the startup message, however the bytes are cut', () => {
    const wire = Buffer.concat([sslRequest, startup, query('SELECT 1')]);
    const delivered = gather(cut(wire, 3));
    expect(Buffer.concat(delivered)).toEqual(wire);
    // Each message is handed on whole, in order: the SSL request, the startup message, the query.
    expect(delivered).toEqual([sslRequest, startup, query('SELECT 1')]);
  });

  it('hands on bytes that are no message at once, for the socket server to answer', () => {
    const garbage = Buffer.from([0, 0, 0, 1, 0, 0, 0, 0]);
    expect(gather([garbage])).toEqual([garbage]);
  });
});
