import { writtenTexts } from '../../../src/formats/families/texts.js';
import { MAX_WRITTEN_TEXTS, MAX_WRITTEN_TEXT_BYTES } from '../../../src/formats/plugin.js';

describe('the texts a game hands over for the full-text index', () => {
  it('trims each text, drops the empty ones and keeps the order and the plies given', () => {
    const given = [
      { ply: 0, text: '  the game  ' },
      { ply: 1, text: '   ' },
      { ply: 2, text: null },
      { ply: 3, text: '\n Сильный ход\n' },
      { ply: 0, text: 'a\nb' },
    ];
    expect(writtenTexts(given)).toEqual([
      { ply: 0, text: 'the game' },
      { ply: 3, text: 'Сильный ход' },
      { ply: 0, text: 'a\nb' },
    ]);
  });

  it('keeps 2,000 texts of 2,001 and stops reading the rest', () => {
    expect(MAX_WRITTEN_TEXTS).toBe(2000);
    let read = 0;
    function* many() {
      for (let i = 1; i <= 2001; i++) {
        read++;
        yield { ply: i, text: `note ${i}` };
      }
    }
    const texts = writtenTexts(many());
    expect(texts).toHaveLength(2000);
    expect(texts[0]).toEqual({ ply: 1, text: 'note 1' });
    expect(texts[1999]).toEqual({ ply: 2000, text: 'note 2000' });
    // The 2,001st is never asked for: a generator over a huge tree stops at the bound.
    expect(read).toBe(2000);
  });

  it('keeps at most 256 KB of UTF-8, cutting the text that crosses it between characters and dropping the rest', () => {
    expect(MAX_WRITTEN_TEXT_BYTES).toBe(262_144);
    // 200,001 bytes of "a", then "я" (2 bytes each): 62,143 bytes are left, room for 31,071 of them.
    const texts = writtenTexts([
      { ply: 0, text: 'a'.repeat(200_001) },
      { ply: 5, text: 'я'.repeat(40_000) },
      { ply: 6, text: 'dropped' },
    ]);
    expect(texts.map((t) => [t.ply, t.text.length])).toEqual([
      [0, 200_001],
      [5, 31_071],
    ]);
    expect(texts[1].text).toBe('я'.repeat(31_071));
    expect(texts.reduce((sum, t) => sum + Buffer.byteLength(t.text), 0)).toBeLessThanOrEqual(262_144);
  });

  it('never splits a character of four bytes', () => {
    // 262,142 bytes of "a" leave 2 bytes: not enough for "𝄞" (4 bytes), so nothing of it is kept.
    const texts = writtenTexts([
      { ply: 0, text: 'a'.repeat(262_142) },
      { ply: 1, text: '𝄞𝄞' },
    ]);
    expect(texts).toEqual([{ ply: 0, text: 'a'.repeat(262_142) }]);
  });
});
