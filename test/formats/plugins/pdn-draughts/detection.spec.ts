import { readFileSync } from 'node:fs';
import { filesUnder } from '../../../support/files.js';
import { pdnDraughtsPlugin } from '../../../../src/formats/plugins/pdn-draughts/plugin.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';

const upload = (text: string) => ({ bytes: Buffer.from(text, 'utf8') });

const PDN_SAMPLES = [
  '[Event "Moscow"]\n[White "A"]\n\n1. c3-d4 d6-e5 *',
  '\uFEFF[White       "Абаулин В."]\r\n[Result      "1-0"]\r\n\r\n1. c3-d4 f6-g5 1-0\r\n',
  '{a collection}\n[GameType "25"]\n[FEN "W:W21,22:B1,2,K3"]\n*',
  '[FEN "B:W21-24:B1-12"]\n1... 9-13 *',
  '1. 22-18 11-15 2. 18x11 8x15 *',
  '1.c3-d4 d6-e5 2.d4xf6 *',
  '[White "A"]\n1. 32-28 19-23 *',
  // A game whose moves were never written (as in the real championship database), then one whose were.
  '[Event "XXXIII"]\r\n[Result "1/2-1/2"]\r\n\r\n1. - - 2. - - 1/2-1/2\r\n\r\n[Event "XXXIII"]\r\n\r\n1. c3-d4 f6-g5 *\r\n',
];

describe('detection among all the archive\'s formats', () => {
  it('claims PDN games, and no other plugin claims them', () => {
    for (const text of PDN_SAMPLES) {
      const claimants = FORMAT_PLUGINS.filter((plugin) => plugin.detect(upload(text))).map((plugin) => plugin.id);
      expect({ text, claimants }).toEqual({ text, claimants: ['pdn-draughts'] });
    }
  });

  it('claims the real PDN files and no other fixture file', () => {
    const claimed = filesUnder('test/fixtures').filter((path) => pdnDraughtsPlugin.detect({ bytes: readFileSync(path), filename: path }));
    expect(claimed).toEqual(['test/fixtures/realdata/checkers/russian/abatsiev.pdn', 'test/fixtures/realdata/checkers/russian/ussr1947.pdn']);
  });

  it('leaves chess PGN, SGF, BARS and prose alone', () => {
    for (const text of [
      '[Event "Chess"]\n[White "A"]\n\n1. e4 e5 2. Nf3 Nc6 *',
      '[Event "Chess"]\n\n1. e2-e4 e7-e5 *',
      '(;GM[1]FF[4]SZ[19];B[pd])',
      'go = [[156, 145], [223, 234]]',
      '[[156, 145]]',
      'In 1. c3-d4 the centre is taken.',
      '[Event Moscow]\n1. c3-d4 *',
      '[Event "Chess"]\n\n1. - - *\n\n[Event "Chess"]\n\n1. e4 e5 *',
      '',
    ]) {
      expect({ text, claimed: pdnDraughtsPlugin.detect(upload(text)) }).toEqual({ text, claimed: false });
    }
    expect(pdnDraughtsPlugin.detect({ bytes: Buffer.from([0xff, 0xfe, 0x00, 0x5b]) })).toBe(false);
  });
});
