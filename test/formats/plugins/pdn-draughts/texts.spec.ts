import { pdnDraughtsPlugin } from '../../../../src/formats/plugins/pdn-draughts/plugin.js';
import { limitOptions, textFile } from '../../../support/limits.js';

const options = limitOptions();
const texts = async (text: string) => (await pdnDraughtsPlugin.read(textFile(text), options)).analysis!.texts;

describe('PDN: the words the file writes, for the full-text index', () => {
  it('gives Site and Annotator, then every comment at the ply it follows, variations counted from the start', async () => {
    const pdn = [
      '{Сборник партий}',
      '[Event "Чемпионат"]',
      '[Site "Москва"]',
      '[Annotator "Иванов"]',
      '[White "Anna"]',
      '[Black "Борис"]',
      '[GameType "25"]',
      '{Начало} 1. c3-d4 {  white opens  } f6-g5 {Чёрные отвечают}',
      '( {до варианта} 1... f6-e5 {вариант} 2. d4:f6 {взятие} )',
      '2. g3-f4 { } ; end-of-line comment',
      '*',
    ].join('\n');
    expect(await texts(pdn)).toEqual([
      { ply: 0, text: 'Москва' },
      { ply: 0, text: 'Иванов' },
      { ply: 0, text: 'Сборник партий' },
      { ply: 0, text: 'Начало' },
      { ply: 1, text: 'white opens' },
      { ply: 2, text: 'Чёрные отвечают' },
      // Before the variation's first move: the position after ply 1, which it starts from.
      { ply: 1, text: 'до варианта' },
      { ply: 2, text: 'вариант' },
      { ply: 3, text: 'взятие' },
      { ply: 3, text: 'end-of-line comment' },
    ]);
  });

  it('has no texts when the game writes none (the event and the names are not among them)', async () => {
    expect(await texts('[Event "Cup"]\n[White "A"]\n[Black "B"]\n1. c3-d4 f6-g5 *\n')).toEqual([]);
  });

  it('keeps 2,000 of 2,001 comments', async () => {
    const comments = Array.from({ length: 2001 }, (_, i) => `{c${i + 1}}`).join(' ');
    const found = (await texts(`${comments}\n1. c3-d4 *\n`))!;
    expect(found).toHaveLength(2000);
    expect(found[1999]).toEqual({ ply: 0, text: 'c2000' });
  });
});
