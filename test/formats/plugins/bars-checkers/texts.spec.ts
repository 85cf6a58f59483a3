import { barsCheckersPlugin } from '../../../../src/formats/plugins/bars-checkers/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const texts = async (text: string) => (await barsCheckersPlugin.read({ bytes: Buffer.from(text, 'utf8') }, options)).analysis!.texts;

describe('BARS: the words the file writes, for the full-text index', () => {
  it('gives every # comment, trimmed, at ply 0 (BARS has no place for them in the moves), the empty ones dropped', async () => {
    const text = ['# Партия из турнира', '#', '#   played at the club  ', 'go = [  # the moves', '  [156, 145], [223, 234]  # два хода', ']', ''].join('\n');
    expect(await texts(text)).toEqual([
      { ply: 0, text: 'Партия из турнира' },
      { ply: 0, text: 'played at the club' },
      { ply: 0, text: 'the moves' },
      { ply: 0, text: 'два хода' },
    ]);
  });

  it('has no texts without comments', async () => {
    expect(await texts('go = [[156, 145]]')).toEqual([]);
  });

  it('keeps 2,000 of 2,001 comments', async () => {
    const comments = Array.from({ length: 2001 }, (_, i) => `# line ${i + 1}`).join('\n');
    const found = (await texts(`${comments}\ngo = [[156, 145]]\n`))!;
    expect(found).toHaveLength(2000);
    expect(found[1999]).toEqual({ ply: 0, text: 'line 2000' });
  });
});
