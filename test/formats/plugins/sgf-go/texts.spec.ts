import { sgfGoPlugin } from '../../../../src/formats/plugins/sgf-go/plugin.js';
import { limitOptions } from '../../../support/limits.js';

const options = limitOptions();
const texts = async (bytes: Buffer) => (await sgfGoPlugin.read({ bytes }, options)).analysis!.texts;

/** Russian text in windows-1251, written here byte by byte: А-я are 0xC0-0xFF in order, the rest ASCII. */
function cp1251(text: string): Buffer {
  return Buffer.from(
    [...text].map((char) => {
      const code = char.codePointAt(0)!;
      if (code >= 0x410 && code <= 0x44f) return 0xc0 + (code - 0x410);
      if (code < 0x80) return code;
      throw new Error(`no windows-1251 byte written here for ${char}`);
    }),
  );
}

describe('SGF Go: the words the file writes, for the full-text index', () => {
  it('gives the game texts at ply 0 and each comment at the ply of its node, variations counted from the start', async () => {
    const sgf = [
      '(;GM[1]FF[4]SZ[9]PB[Anna]PW[Борис]EV[Кубок]GN[Final game]PC[Москва]C[Root comment]GC[A quiet game\nin two lines]',
      ';B[cc]C[  Good start  ]', // ply 1, trimmed
      ';C[a note without a move]', // still ply 1
      ';W[gg]C[   ]', // ply 2, empty: dropped
      ';AB[aa]', // setup only: no ply
      ';B[cg]C[Сильный ход \\] со скобкой]', // ply 3, the escaped bracket read
      '(;W[gc]C[main line reply];B[ee]W[ff]C[two moves in one node])', // plies 4, then 5 and 6
      '(;W[gd]C[вариант];B[dd]C[deeper]))', // a variation: ply 4, then 5
    ].join('\n');
    expect(await texts(Buffer.from(sgf, 'utf8'))).toEqual([
      { ply: 0, text: 'Final game' },
      { ply: 0, text: 'Москва' },
      { ply: 0, text: 'Root comment' },
      { ply: 0, text: 'A quiet game\nin two lines' },
      { ply: 1, text: 'Good start' },
      { ply: 1, text: 'a note without a move' },
      { ply: 3, text: 'Сильный ход ] со скобкой' },
      { ply: 4, text: 'main line reply' },
      { ply: 6, text: 'two moves in one node' },
      { ply: 4, text: 'вариант' },
      { ply: 5, text: 'deeper' },
    ]);
  });

  it('reads the texts in the charset CA declares (windows-1251)', async () => {
    const bytes = Buffer.concat([
      Buffer.from('(;GM[1]FF[4]CA[windows-1251]SZ[9]PC['),
      cp1251('Санкт-Петербург'),
      Buffer.from(']AN['),
      cp1251('Иванов'),
      Buffer.from('];B[ee]C['),
      cp1251('Хороший ход'),
      Buffer.from('];W[cc];B[gg]C[ok])'),
    ]);
    expect(await texts(bytes)).toEqual([
      { ply: 0, text: 'Санкт-Петербург' },
      { ply: 0, text: 'Иванов' },
      { ply: 1, text: 'Хороший ход' },
      { ply: 3, text: 'ok' },
    ]);
  });

  it('has no texts when the file writes none (no event or names among them)', async () => {
    expect(await texts(Buffer.from('(;GM[1]SZ[9]EV[Cup]PB[A]PW[B];B[aa];W[bb])'))).toEqual([]);
  });

  it('keeps 2,000 of 2,001 comments', async () => {
    const moves = Array.from({ length: 2001 }, (_, i) => `;${i % 2 === 0 ? 'B' : 'W'}[]C[pass ${i + 1}]`).join('');
    const found = (await texts(Buffer.from(`(;GM[1]SZ[9]${moves})`)))!;
    expect(found).toHaveLength(2000);
    expect(found[0]).toEqual({ ply: 1, text: 'pass 1' });
    expect(found[1999]).toEqual({ ply: 2000, text: 'pass 2000' });
  });
});
