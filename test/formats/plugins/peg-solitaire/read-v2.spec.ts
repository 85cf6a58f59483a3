import { FormatError } from '../../../../src/core/errors.js';
import { parseV2 } from '../../../../src/formats/plugins/peg-solitaire/read-v2.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

function issueOf(text: string) {
  try {
    parseV2(text, DEFAULT_LIMITS);
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return (error as FormatError).issues[0];
  }
  throw new Error('expected a FormatError');
}

const kinds = (text: string) =>
  parseV2(text, DEFAULT_LIMITS).board.cells.map((c) => (c.kind === 'locked' ? (c.halfWidth ? '.' : '*') : `${c.stone ?? 'e'}${c.target ? '!' : ''}`));

describe('parseV2', () => {
  it.each([
    ['CRLF', '\r\n'],
    ['LF', '\n'],
    ['CR', '\r'],
  ])('reads the same board whatever the line ends (%s), with or without a last line end', (_, eol) => {
    const lines = ['Version 2', 'Mode: Diagonal', '* r e', 'G y *'];
    for (const text of [lines.join(eol), lines.join(eol) + eol]) {
      const parsed = parseV2(text, DEFAULT_LIMITS);
      expect(parsed.board).toMatchObject({ mode: 'diagonal', width: 3, height: 2 });
      expect(kinds(text)).toEqual(['*', 'red', 'e', 'green!', 'yellow', '*']);
      expect(parsed.header).toBe(['Version 2', 'Mode: Diagonal'].join(eol));
    }
  });

  it('compares the header lines without regard to case', () => {
    expect(parseV2('VERSION 2\nmode: NORMAL\ny y e\n', DEFAULT_LIMITS).board.mode).toBe('normal');
    expect(parseV2('version 2\nMoDe: DiAgOnAl\ny y e\n', DEFAULT_LIMITS).board.mode).toBe('diagonal');
  });

  it('ignores spaces and blank lines', () => {
    expect(kinds('version 2\nmode: normal\n\n  y   ye\n\n   \neyy\n\n')).toEqual(['yellow', 'yellow', 'e', 'e', 'yellow', 'yellow']);
  });

  it('reads upper case as a target for every slot letter, and empty targets', () => {
    expect(kinds('version 2\nmode: normal\nR Y G E\n')).toEqual(['red!', 'yellow!', 'green!', 'e!']);
  });

  it('reads dots before and after a row as a half-cell shift, not as cells (current program)', () => {
    const parsed = parseV2('version 2\nmode: diagonal\n..e * *\n.y y *\ny y y\n* y y ..\n', DEFAULT_LIMITS);
    expect(parsed.dotReading).toBe('shift');
    expect(parsed.board.width).toBe(3);
    expect(parsed.board.rowShifts).toEqual([2, 1, 0, -2]);
  });

  it('reads a triangle whose rows are equal only when dots count as half-width cells (first version-2 program)', () => {
    const parsed = parseV2('version 2\nmode: diagonal\n..e\n.y y\ny y Y\n', DEFAULT_LIMITS);
    expect(parsed.dotReading).toBe('cell');
    expect(parsed.board).toMatchObject({ width: 3, height: 3 });
    expect(kinds('version 2\nmode: diagonal\n..e\n.y y\ny y Y\n')).toEqual(['.', '.', 'e', '.', 'yellow', 'yellow', 'yellow', 'yellow', 'yellow!']);
  });

  it('rejects rows of different lengths under both readings, at the first row that differs', () => {
    expect(issueOf('version 2\nmode: normal\ny y y\ny y\n')).toMatchObject({ line: 4, column: 1, message: expect.stringMatching(/2 elements, the first row 3/) });
    expect(issueOf('version 2\nmode: normal\n\ny y y\n\n  . y y y y\n')).toMatchObject({ line: 6, column: 3 });
  });

  it('rejects unknown characters with line and column', () => {
    expect(issueOf('version 2\nmode: normal\ny y y\ny x y\n')).toMatchObject({ line: 4, column: 3, message: expect.stringMatching(/unknown element "x"/) });
    // Version-1 elements are not version-2 elements.
    expect(issueOf('version 2\r\nmode: normal\r\nX 2 2\r\n')).toMatchObject({ line: 3, column: 1 });
    expect(issueOf('version 2\nmode: normal\ny >y y\n')).toMatchObject({ line: 3, column: 3 });
  });

  it('rejects a bad header and a board without rows', () => {
    expect(issueOf('version 3\nmode: normal\ny\n')).toMatchObject({ line: 1, message: expect.stringMatching(/version 2/) });
    expect(issueOf('version 2\nmode: sideways\ny\n')).toMatchObject({ line: 2, column: 1 });
    expect(issueOf('version 2\n')).toMatchObject({ message: expect.stringMatching(/mode/) });
    expect(issueOf('version 2\nmode: normal\n\n\n').message).toMatch(/no rows/);
    expect(issueOf('version 2\nmode: normal\n...\n..\n').message).toMatch(/only dots/);
  });
});
