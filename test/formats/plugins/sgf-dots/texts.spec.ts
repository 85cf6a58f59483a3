import { sgfDotsPlugin } from '../../../../src/formats/plugins/sgf-dots/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import type { ReadOptions } from '../../../../src/formats/plugin.js';

const options: ReadOptions = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const texts = async (text: string) => (await sgfDotsPlugin.read({ bytes: Buffer.from(text, 'utf8') }, options)).analysis!.texts;

describe('SGF Dots: the words the file writes, for the full-text index', () => {
  it('gives the game texts at ply 0 and each comment at its ply, one ply a value of B or W', async () => {
    const sgf = [
      '(;GM[40]FF[4]SZ[9]PB[Ann]PW[Боб]EV[Club night]C[Перед игрой]GN[Дружеская]SO[zagram]',
      ';B[cc]C[first dot]', // ply 1
      ';W[dd]', // ply 2
      ';B[ee][ff]C[  two dots in one property  ]', // plies 3 and 4: the comment at 4
      '(;W[gg]C[главная линия];B[aa]C[ply six])', // plies 5, 6
      '(;W[hh]C[a variation];B[]C[ground]))', // a variation: plies 5, 6 (an empty value is a ply)
    ].join('\n');
    expect(await texts(sgf)).toEqual([
      { ply: 0, text: 'Перед игрой' },
      { ply: 0, text: 'Дружеская' },
      { ply: 0, text: 'zagram' },
      { ply: 1, text: 'first dot' },
      { ply: 4, text: 'two dots in one property' },
      { ply: 5, text: 'главная линия' },
      { ply: 6, text: 'ply six' },
      { ply: 5, text: 'a variation' },
      { ply: 6, text: 'ground' },
    ]);
  });

  it('has no texts when the file writes none', async () => {
    expect(await texts('(;GM[40]FF[4]SZ[5]PB[Ann]PW[Bob]EV[Cup];B[cb];W[cc])')).toEqual([]);
  });

  it('keeps 2,000 of 2,001 comments', async () => {
    // 2,001 nodes without moves on a root: every comment is about the start (ply 0).
    const notes = Array.from({ length: 2001 }, (_, i) => `;C[note ${i + 1}]`).join('');
    const found = (await texts(`(;GM[40]SZ[5]${notes})`))!;
    expect(found).toHaveLength(2000);
    expect(found[1999]).toEqual({ ply: 0, text: 'note 2000' });
  });
});
