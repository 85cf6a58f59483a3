import { vkDotsPlugin } from '../../../../src/formats/plugins/vk-dots/plugin.js';
import { limitOptions, refusal, textFile } from '../../../support/limits.js';

const options = limitOptions;
const file = textFile;


describe('VK Dots: MAX_PLIES', () => {
  it('accepts a code of exactly MAX_PLIES dots (a stop is not a dot) and refuses the next dot where it stands', async () => {
    // aa bb 0f cc dd: four dots and a stop; ee is the fifth dot, at offset 10.
    expect((await vkDotsPlugin.read(file('aabb0fccdd'), options({ maxPlies: 4 }))).analysis!.moveCount).toBe(4);
    const error = await refusal(vkDotsPlugin.read(file('aabb0fccddee'), options({ maxPlies: 4 })));
    expect(error.code).toBe('limit.plies');
    expect(error.message).toContain('MAX_PLIES');
    expect(error.issues[0]).toMatchObject({ ply: 5, offset: 10, line: 1, column: 11 });
  });

  it('counts a surround record as part of its dot', async () => {
    // The record after aa (16 characters with it) is only compared with the replay: any well-formed one will do.
    const code = 'aa#aaab#cc##1@0#bbcc';
    expect((await vkDotsPlugin.read(file(code), options({ maxPlies: 3 }))).analysis!.moveCount).toBe(3);
    const error = await refusal(vkDotsPlugin.read(file(code), options({ maxPlies: 2 })));
    expect(error.issues[0]).toMatchObject({ ply: 3, offset: 18 });
  });

  it('refuses the code line of a save file at its line and column', async () => {
    // Lines 1-4 take 4 + 6 + 7 + 4 = 21 characters; the fifth dot is at column 9 of line 5.
    const save = '1.0\n1 Red\n2 Blue\n-b-\naabbccddee';
    const error = await refusal(vkDotsPlugin.read(file(save), options({ maxPlies: 4 })));
    expect(error.issues[0]).toMatchObject({ ply: 5, line: 5, column: 9, offset: 21 + 8 });
  });

  it('refuses a bare code of a million letters at dot 10,001 under the defaults, without reading the rest', async () => {
    const error = await refusal(vkDotsPlugin.read(file('a'.repeat(1_000_000)), options()));
    expect(error.code).toBe('limit.plies');
    expect(error.issues[0]).toMatchObject({ ply: 10_001, offset: 20_000, line: 1, column: 20_001 });
    expect((await refusal(vkDotsPlugin.regenerate(file('a'.repeat(1_000_000)), options()))).code).toBe('limit.plies');
  });
});

describe('VK Dots: MAX_LINE_LENGTH and MAX_BOARD_SIDE', () => {
  it('refuses a line longer than the bound at the first character past it, and accepts one of the bound', async () => {
    const save = (name: string) => `1.0\n1 ${name}\n2 Blue\n-b-\naabb`;
    // Line 2 is "1 " and the name: 10 characters with "Redredre", 11 with "Redredred".
    expect((await vkDotsPlugin.read(file(save('Redredre')), options({ maxLineLength: 10 }))).analysis!.moveCount).toBe(2);
    const error = await refusal(vkDotsPlugin.read(file(save('Redredred')), options({ maxLineLength: 10 })));
    expect(error.code).toBe('limit.line_length');
    expect(error.issues[0]).toMatchObject({ line: 2, column: 11, offset: 4 + 10 });
    expect((await refusal(vkDotsPlugin.regenerate(file(save('Redredred')), options({ maxLineLength: 10 })))).code).toBe('limit.line_length');
  });

  it('games are replayed on a 35x35 field: refused when MAX_BOARD_SIDE is below 35', async () => {
    expect((await vkDotsPlugin.read(file('aabb'), options({ maxBoardSide: 35 }))).analysis!.moveCount).toBe(2);
    const error = await refusal(vkDotsPlugin.read(file('aabb'), options({ maxBoardSide: 34 })));
    expect(error.code).toBe('limit.board');
    expect(error.message).toContain('35x35');
  });
});
