import { FormatError } from '../../../../src/core/errors.js';
import { parseV1 } from '../../../../src/formats/plugins/peg-solitaire/read-v1.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

function issueOf(text: string) {
  try {
    parseV1(text, DEFAULT_LIMITS);
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    const e = error as FormatError;
    expect(e.status).toBe(422);
    return e.issues[0];
  }
  throw new Error('expected a FormatError');
}

const TRIANGLE_ROWS = ['**E!', '*22', '2>22'];

describe('parseV1', () => {
  it.each([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
    ['CR', '\r'],
    ['no line breaks', ''],
  ])('reads the same board whatever the line ends (%s)', (_, eol) => {
    const parsed = parseV1(['1D~', ...TRIANGLE_ROWS].join(eol) + eol, DEFAULT_LIMITS);
    expect(parsed.board).toMatchObject({ mode: 'diagonal', width: 3, height: 3 });
    expect(parsed.board.cells.map((c) => (c.kind === 'locked' ? (c.halfWidth ? '*' : 'X') : `${c.stone ?? 'E'}${c.target ? '!' : ''}`))).toEqual([
      '*', '*', 'E',
      '*', 'yellow', 'yellow',
      'yellow', 'yellow!', 'yellow',
    ]);
    expect(parsed.header).toBe('1D~');
  });

  it('counts half-width fields as cells of the matrix and marks them', () => {
    const { board } = parseV1('1N~****E!***22**222*222222222', DEFAULT_LIMITS);
    expect(board.width).toBe(5);
    expect(board.height).toBe(5);
    const halfWidth = board.cells.filter((c) => c.kind === 'locked' && c.halfWidth).length;
    expect(halfWidth).toBe(4 + 3 + 2 + 1);
  });

  it('lets line breaks stand anywhere, even inside the header and between > and its field', () => {
    const { board, header } = parseV1('1\nN\n~\nX3>\n1!\r\n2EX', DEFAULT_LIMITS);
    expect(header).toBe('1\nN\n~');
    expect(board).toMatchObject({ mode: 'normal', width: 3, height: 2 });
    expect(board.cells[2]).toEqual({ kind: 'slot', stone: 'green', target: true });
  });

  it('reads the stone colours and the body text', () => {
    const parsed = parseV1('1N~\r\n321E!\r\nXXXX\r\n', DEFAULT_LIMITS);
    expect(parsed.body).toBe('321E!\r\nXXXX\r\n');
    expect(parsed.board.cells.slice(0, 4)).toEqual([
      { kind: 'slot', stone: 'red', target: false },
      { kind: 'slot', stone: 'yellow', target: false },
      { kind: 'slot', stone: 'green', target: false },
      { kind: 'slot', stone: null, target: false },
    ]);
  });

  it('accepts a single row (no elements after !)', () => {
    expect(parseV1('1N~22E!', DEFAULT_LIMITS).board).toMatchObject({ width: 3, height: 1 });
  });

  it('rejects a second ! at its place', () => {
    expect(issueOf('1N~\r\n22E!\r\n2!2E\r\n')).toMatchObject({ line: 3, column: 2, message: expect.stringMatching(/second "!"/) });
  });

  it('rejects a file without !', () => {
    expect(issueOf('1N~\n22E\n').message).toMatch(/no "!"/);
  });

  it('rejects rows that do not fill the matrix', () => {
    const issue = issueOf('1N~\n22E!\n22E\n2\n');
    expect(issue.message).toMatch(/4 elements after "!" do not fill rows of 3/);
    expect(issue.line).toBe(5);
  });

  it('rejects > before a locked field, before a line end at the end of the file, and before !', () => {
    expect(issueOf('1N~\n2>X2!\n')).toMatchObject({ line: 2, column: 2, message: expect.stringMatching(/locked field "X"/) });
    expect(issueOf('1N~\n2>*2!\n').message).toMatch(/locked field "\*"/);
    expect(issueOf('1N~\n22!\n2>\n')).toMatchObject({ line: 3, column: 2, message: expect.stringMatching(/at the end/) });
    expect(issueOf('1N~\n22>!\n22\n')).toMatchObject({ line: 2, column: 3 });
  });

  it('rejects unknown characters with line and column: spaces, lower case, version-2 letters', () => {
    expect(issueOf('1N~\r\n2 2E!\r\n')).toMatchObject({ line: 2, column: 2, message: expect.stringMatching(/unknown element " "/) });
    expect(issueOf('1N~\r\n22e!\r\n')).toMatchObject({ line: 2, column: 3 });
    expect(issueOf('1N~\r\n22E!\r\n2y2\r\n')).toMatchObject({ line: 3, column: 2 });
  });

  it('rejects a broken header', () => {
    expect(issueOf('2N~22!').message).toMatch(/start with "1"/);
    expect(issueOf('1n~22!').message).toMatch(/"D".*"N"/);
    expect(issueOf('1N22!')).toMatchObject({ line: 1, column: 3, message: expect.stringMatching(/end with "~"/) });
  });

  it('rejects ! before any element', () => {
    expect(issueOf('1N~!22').message).toMatch(/before any element/);
  });
});
