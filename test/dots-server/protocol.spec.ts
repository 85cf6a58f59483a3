import { BadRequest, FramerEvent, RequestFramer, formatAnswer, parseRequest } from '../../src/dots-server/protocol.js';

function frames(framer: RequestFramer, ...chunks: string[]): (string | FramerEvent)[] {
  return chunks.flatMap((chunk) => framer.push(Buffer.from(chunk, 'utf8'))).map((e) => (e.kind === 'bad' ? `401 ${e.error.reason}` : e));
}

describe('answers', () => {
  it('are the code, the description, body lines and two empty lines', () => {
    expect(formatAnswer(200)).toBe('200\n\n\n');
    expect(formatAnswer(203, undefined, ['GID 7'])).toBe('203\nGID 7\n\n\n');
    expect(formatAnswer(408, 'not_your_turn')).toBe('408 not_your_turn\n\n\n');
    expect(new BadRequest('bad_parameter', 'x').answer()).toBe('401 bad_parameter x\n\n\n');
  });
});

describe('request lines', () => {
  it('reads every request with its parameters', () => {
    expect(parseRequest('REG alice s3cret')).toEqual({ code: 'REG', login: 'alice', password: 's3cret' });
    expect(parseRequest('LOG Вася pw')).toEqual({ code: 'LOG', login: 'Вася', password: 'pw' });
    for (const code of ['LGT', 'UST', 'GLS', 'FIN', 'SRD']) expect(parseRequest(code)).toEqual({ code });
    expect(parseRequest('NEW 4 10 50 15 1')).toEqual({ code: 'NEW', players: 4, width: 10, height: 50, seconds: 15, extraMove: true });
    expect(parseRequest('NEW 2 39 32 90 0')).toEqual({ code: 'NEW', players: 2, width: 39, height: 32, seconds: 90, extraMove: false });
    expect(parseRequest('JOI 12')).toEqual({ code: 'JOI', gameId: 12 });
    expect(parseRequest('TRN 0 49')).toEqual({ code: 'TRN', x: 0, y: 49 });
  });

  it.each([
    ['XYZ', 'unknown_command'],
    ['reg a b', 'unknown_command'],
    ['REG alice', 'bad_parameter'],
    ['REG alice pw extra', 'bad_parameter'],
    ['REG  alice pw', 'bad_parameter'],
    ['REG al!ce pw', 'bad_parameter'],
    [`REG ${'a'.repeat(33)} pw`, 'bad_parameter'],
    ['LGT now', 'bad_parameter'],
    ['NEW 1 10 10 15 0', 'bad_parameter'],
    ['NEW 5 10 10 15 0', 'bad_parameter'],
    ['NEW 2 9 10 15 0', 'bad_parameter'],
    ['NEW 2 10 51 15 0', 'bad_parameter'],
    ['NEW 2 10 10 14 0', 'bad_parameter'],
    ['NEW 2 10 10 91 0', 'bad_parameter'],
    ['NEW 2 10 10 15 2', 'bad_parameter'],
    ['NEW 2 10 10 15 -1', 'bad_parameter'],
    ['NEW 2 1e1 10 15 0', 'bad_parameter'],
    ['JOI 0', 'bad_parameter'],
    ['JOI x', 'bad_parameter'],
    ['TRN 3', 'bad_parameter'],
    ['TRN 50 0', 'bad_parameter'],
    ['TRN -1 0', 'bad_parameter'],
  ])('refuses %j: %s', (line, reason) => {
    const parsed = parseRequest(line);
    expect(parsed).toBeInstanceOf(BadRequest);
    expect((parsed as BadRequest).reason).toBe(reason);
  });
});

describe('framing', () => {
  it('completes a request after its line and two empty lines, in any chunks', () => {
    const framer = new RequestFramer(100);
    expect(frames(framer, 'GLS\n')).toEqual([]);
    expect(frames(framer, '\n')).toEqual([]);
    expect(frames(framer, '\n')).toEqual([{ kind: 'request', request: { code: 'GLS' } }]);
    expect(frames(framer, 'TR', 'N 1 ', '2\r\n\r', '\n\r\nUST\n\n\n')).toEqual([
      { kind: 'request', request: { code: 'TRN', x: 1, y: 2 } },
      { kind: 'request', request: { code: 'UST' } },
    ]);
    expect(framer.pendingBytes).toBe(0);
  });

  it('ignores empty lines between requests', () => {
    expect(frames(new RequestFramer(100), '\n\n\n\nGLS\n\n\n')).toEqual([{ kind: 'request', request: { code: 'GLS' } }]);
  });

  it('answers a request line without its empty lines as bad framing and reads the next one', () => {
    expect(frames(new RequestFramer(100), 'GLS\nUST\n\n\n')).toEqual(['401 bad_framing', { kind: 'request', request: { code: 'UST' } }]);
  });

  it('answers an unreadable request once its frame is complete', () => {
    expect(frames(new RequestFramer(100), 'HELLO\n\n')).toEqual([]);
    expect(frames(new RequestFramer(100), 'HELLO\n\n\n')).toEqual(['401 unknown_command']);
    expect(frames(new RequestFramer(100), 'GLS\t\n\n\n')).toEqual(['401 not_text']);
    const framer = new RequestFramer(100);
    expect(framer.push(Buffer.from([0x47, 0xff, 0x0a, 0x0a, 0x0a])).map((e) => e.kind === 'bad' && e.error.reason)).toEqual(['not_text']);
  });

  it('answers an oversized line at once, keeps at most maxLine bytes, and skips to the line end', () => {
    const framer = new RequestFramer(10);
    expect(frames(framer, 'x'.repeat(8))).toEqual([]);
    expect(framer.pendingBytes).toBe(8);
    expect(frames(framer, 'xxx')).toEqual(['401 line_too_long']);
    expect(framer.pendingBytes).toBe(0);
    expect(frames(framer, 'y'.repeat(1000))).toEqual([]);
    expect(framer.pendingBytes).toBe(0);
    expect(frames(framer, 'zz\nGLS\n\n\n')).toEqual([{ kind: 'request', request: { code: 'GLS' } }]);
  });

  it('takes a line of exactly maxLine bytes', () => {
    expect(frames(new RequestFramer(7), 'TRN 1 2\n\n\n')).toEqual([{ kind: 'request', request: { code: 'TRN', x: 1, y: 2 } }]);
  });
});
