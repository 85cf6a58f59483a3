import { dotsServerPlugin } from '../../../../src/formats/plugins/dots-board-state/plugin.js';
import { limitOptions, refusal, textFile } from '../../../support/limits.js';

const options = limitOptions;
const file = textFile;
const answer = (rows: string[]) => ['204', 'ACU anna', 'AUF 1 1', 'SCR 0 0', ...rows.map((r) => `GAL ${r}`), ''].join('\n');


describe('Dots server: MAX_BOARD_SIDE', () => {
  it('accepts a 3x4 board with the bound 4; with 3 refuses the fourth GAL row', async () => {
    const text = answer(['000', '010', '020', '000']);
    expect((await dotsServerPlugin.read(file(text), options({ maxBoardSide: 4 }))).analysis!.details).toMatchObject({ width: 3, height: 4 });
    const error = await refusal(dotsServerPlugin.read(file(text), options({ maxBoardSide: 3 })));
    expect(error.code).toBe('limit.board');
    expect(error.message).toContain('3x4');
    // Lines 1-7 ("204", "ACU anna", "AUF 1 1", "SCR 0 0", three rows) take 4 + 9 + 8 + 8 + 3 × 8 = 53 characters.
    expect(error.issues[0]).toMatchObject({ line: 8, column: 1, offset: 53 });
    expect((await refusal(dotsServerPlugin.regenerate(file(text), options({ maxBoardSide: 3 })))).code).toBe('limit.board');
  });

  it('refuses a row wider than the bound at its first point past it', async () => {
    const text = answer(['00100', '00200']);
    const error = await refusal(dotsServerPlugin.read(file(text), options({ maxBoardSide: 4 })));
    expect(error.message).toContain('5x2');
    // "GAL " then the points: the fifth point is column 9 of line 5 (offset 4 + 9 + 8 + 8 + 8).
    expect(error.issues[0]).toMatchObject({ line: 5, column: 9, offset: 37 });
  });
});

describe('Dots server: MAX_LINE_LENGTH', () => {
  it('refuses a line longer than the bound, and accepts one of the bound', async () => {
    const text = answer(['000', '010']);
    expect((await dotsServerPlugin.read(file(text), options({ maxLineLength: 8 }))).analysis!.details).toMatchObject({ width: 3 });
    const error = await refusal(dotsServerPlugin.read(file(text), options({ maxLineLength: 7 })));
    expect(error.code).toBe('limit.line_length');
    expect(error.issues[0]).toMatchObject({ line: 2, column: 8, offset: 4 + 7 });
  });
});
