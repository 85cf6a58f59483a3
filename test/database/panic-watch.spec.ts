import { PanicWatch } from '../../src/database/panic-watch.js';

/** A backend message: the type byte, the length (itself included), the body. */
function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

/** An ErrorResponse with the given fields (code letter → value), as PostgreSQL writes it. */
function errorResponse(fields: Record<string, string>): Buffer {
  const parts = Object.entries(fields).map(([code, value]) => Buffer.concat([Buffer.from(code, 'latin1'), Buffer.from(value, 'utf8'), Buffer.from([0])]));
  return message('E', Buffer.concat([...parts, Buffer.from([0])]));
}

const rowDescription = message('T', Buffer.from('\u0000\u0001x\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0019\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'));
/** A data row whose bytes hold what a careless scan would take for a PANIC field. */
const trickyRow = message('D', Buffer.concat([Buffer.from([0, 1, 0, 0, 0, 9]), Buffer.from('E\u0000SPANIC\u0000', 'latin1')]));
const complete = message('C', Buffer.from('SELECT 1\u0000'));
const ready = message('Z', Buffer.from('I'));
const panic = errorResponse({ S: 'PANIC', V: 'PANIC', C: '53100', M: 'could not write to log file "000000010000000000000001": No space left on device' });

function watch(chunks: readonly Uint8Array[]): string[] {
  const found: string[] = [];
  const watcher = new PanicWatch((text) => found.push(text));
  for (const chunk of chunks) watcher.push(chunk);
  return found;
}

describe('PanicWatch', () => {
  it('reports an ErrorResponse of severity PANIC with its SQLSTATE and message', () => {
    expect(watch([Buffer.concat([rowDescription, trickyRow, panic, ready])])).toEqual(['53100 could not write to log file "000000010000000000000001": No space left on device']);
  });

  it('finds it however the answer is cut into chunks, down to single bytes', () => {
    const answer = Buffer.concat([rowDescription, trickyRow, complete, panic, ready]);
    for (let cut = 1; cut < answer.length; cut++) {
      expect([cut, watch([answer.subarray(0, cut), answer.subarray(cut)])]).toEqual([cut, [expect.stringMatching(/^53100 could not write/)]]);
    }
    expect(watch([...answer].map((byte) => Uint8Array.of(byte)))).toHaveLength(1);
  });

  it('passes over errors below PANIC, notices and row data that look like one', () => {
    const error = errorResponse({ S: 'ERROR', V: 'ERROR', C: '53100', M: 'could not extend file "base/5/16565": No space left on device' });
    const fatal = errorResponse({ S: 'FATAL', V: 'FATAL', C: '57P01', M: 'terminating connection' });
    const notice = message('N', Buffer.from('SPANIC\u0000VPANIC\u0000Mnot an error\u0000\u0000', 'latin1'));
    expect(watch([Buffer.concat([trickyRow, error, fatal, notice, complete, ready])])).toEqual([]);
  });

  it('reads the untranslated severity (V) before the localised one (S)', () => {
    expect(watch([errorResponse({ S: 'ПАНИКА', V: 'PANIC', C: 'XX000', M: 'm' })])).toEqual(['XX000 m']);
    expect(watch([errorResponse({ S: 'PANIC', C: 'XX000', M: 'old server' })])).toEqual(['XX000 old server']);
  });

  it('stops reading at a length no message can have', () => {
    const broken = Buffer.from([0x44, 0, 0, 0, 2]);
    expect(watch([Buffer.concat([broken, panic])])).toEqual([]);
  });
});
