import { pdnDraughtsPlugin } from '../../../../src/formats/plugins/pdn-draughts/plugin.js';
import { limitOptions, textFile } from '../../../support/limits.js';

const options = limitOptions();
const pieces = (bytes: Buffer) => pdnDraughtsPlugin.split!({ bytes }, options).map((slice) => bytes.subarray(slice.start, slice.end).toString('utf8'));

describe('split', () => {
  it('gives each game from its first token to its terminator, in bytes (multi-byte names and a BOM counted)', () => {
    const games = ['[White "Ёлкин"]\n[Black "Щукин"]\n\n1. c3-d4 f6-g5 1-0', '[White "Юдин"]\n1. c3-b4 {ещё} (1. a3-b4) 1/2-1/2', '[White "Эйве"]\n1. e3-f4 *'];
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${games.join('\n\n')}\n`)]);
    expect(pieces(bytes)).toEqual(games);
    expect(pdnDraughtsPlugin.split!({ bytes }, options)[0].start).toBe(3);
  });

  it('ends a game without terminator where the next tag section starts; a "[" or result inside comments does not count', () => {
    const text = '[White "A"]\n1. c3-d4 {1-0 [White "x"]}\n[White "B"]\n1. c3-b4 (1... 1-0 f6-g5) b6-a5 0-1\n{trailing remark}\n';
    expect(pieces(textFile(text).bytes)).toEqual(['[White "A"]\n1. c3-d4 {1-0 [White "x"]}', '[White "B"]\n1. c3-b4 (1... 1-0 f6-g5) b6-a5 0-1']);
  });

  it('reads a file of one game as one slice, and refuses a file without any game', () => {
    expect(pieces(textFile('1. c3-d4 *').bytes)).toEqual(['1. c3-d4 *']);
    expect(() => pdnDraughtsPlugin.split!(textFile('{only a comment}\n'), options)).toThrow('the file holds no PDN game');
    expect(() => pdnDraughtsPlugin.split!(textFile('[White "A"]\n1. c3-d4 {open'), options)).toThrow('the comment "{" is never closed');
  });
});
