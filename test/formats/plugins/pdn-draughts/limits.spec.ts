import { pdnDraughtsPlugin } from '../../../../src/formats/plugins/pdn-draughts/plugin.js';
import { limitOptions, refusal, textFile } from '../../../support/limits.js';

// 4 plies in the main line and 2 in the variation: 6 in all.
const GAME = '[White "A"]\n1. c3-d4 f6-g5 (1... b6-c5 2. d4:b6) 2. d4-c5 d6:b4 *';

describe('PDN bounds', () => {
  it('MAX_PLIES counts every variation and refuses at the move past the bound', async () => {
    expect((await pdnDraughtsPlugin.read(textFile(GAME), limitOptions({ maxPlies: 6 }))).analysis!.moveCount).toBe(4);
    const error = await refusal(pdnDraughtsPlugin.read(textFile(GAME), limitOptions({ maxPlies: 5 })));
    expect(error.code).toBe('limit.plies');
    // The 6th move written is d6:b4, on line 2.
    expect(error.issues[0]).toMatchObject({ ply: 6, line: 2, column: GAME.split('\n')[1].indexOf('d6:b4') + 1 });
    expect((await refusal(pdnDraughtsPlugin.regenerate(textFile(GAME), limitOptions({ maxPlies: 5 })))).code).toBe('limit.plies');
  });

  it('MAX_VARIATION_DEPTH refuses at the "(" one level too deep', async () => {
    expect((await pdnDraughtsPlugin.read(textFile(GAME), limitOptions({ maxVariationDepth: 1 }))).analysis!.verdict.legal).toBe(true);
    const error = await refusal(pdnDraughtsPlugin.read(textFile(GAME), limitOptions({ maxVariationDepth: 0 })));
    expect(error.code).toBe('limit.variation_depth');
    expect(error.issues[0]).toMatchObject({ line: 2, column: GAME.split('\n')[1].indexOf('(') + 1 });
  });

  it('refuses 100,000 nested variations by depth, not with a stack overflow', async () => {
    const deep = `1. c3-d4\n${'(1. c3-b4\n'.repeat(100000)}`;
    expect((await refusal(pdnDraughtsPlugin.read(textFile(deep), limitOptions()))).code).toBe('limit.variation_depth');
  });

  it('MAX_LINE_LENGTH and MAX_BOARD_SIDE', async () => {
    const longest = Math.max(...GAME.split('\n').map((line) => line.length));
    expect((await pdnDraughtsPlugin.read(textFile(GAME), limitOptions({ maxLineLength: longest }))).analysis).toBeDefined();
    expect((await refusal(pdnDraughtsPlugin.read(textFile(GAME), limitOptions({ maxLineLength: longest - 1 })))).code).toBe('limit.line_length');
    expect((await refusal(pdnDraughtsPlugin.read(textFile(GAME), limitOptions({ maxBoardSide: 7 })))).code).toBe('limit.board');
  });
});
