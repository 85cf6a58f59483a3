import { decodeUtf8, locate } from '../../../src/formats/text/decode.js';
import { FormatError } from '../../../src/core/errors.js';

describe('decodeUtf8', () => {
  it('decodes Cyrillic and drops a BOM', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Павел', 'utf8')]);
    expect(decodeUtf8(bytes)).toBe('Павел');
  });

  it('names the byte offset of the first invalid sequence', () => {
    const bytes = Buffer.concat([Buffer.from('abc', 'latin1'), Buffer.from([0xcf, 0xe0, 0xe2])]);
    try {
      decodeUtf8(bytes);
      throw new Error('expected a FormatError');
    } catch (error) {
      expect(error).toBeInstanceOf(FormatError);
      expect((error as FormatError).issues[0].offset).toBe(3);
    }
  });
});

describe('locate', () => {
  it.each([
    ['ab\ncd', 4, 2, 2],
    ['ab\r\ncd', 5, 2, 2],
    ['ab\rcd', 3, 2, 1],
    ['abc', 0, 1, 1],
  ])('finds line and column in %j at %d', (text, offset, line, column) => {
    expect(locate(text, offset)).toEqual({ line, column, offset });
  });
});
