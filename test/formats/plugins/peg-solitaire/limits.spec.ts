import { pegSolitairePlugin as plugin } from '../../../../src/formats/plugins/peg-solitaire/plugin.js';
import { limitOptions, refusal, textFile } from '../../../support/limits.js';

const options = limitOptions;
const file = textFile;


describe('peg solitaire, version 1: MAX_BOARD_SIDE', () => {
  it('refuses a first row wider than the bound at its first cell past it', async () => {
    // 1 N ~ 2 2 E ! 2 E E: three cells a row; the third, "E", is at offset 5.
    const text = '1N~22E!2EE';
    expect((await plugin.read(file(text), options({ maxBoardSide: 3 }))).analysis!.details).toMatchObject({ width: 3, height: 2 });
    const error = await refusal(plugin.read(file(text), options({ maxBoardSide: 2 })));
    expect(error.code).toBe('limit.board');
    expect(error.message).toContain('3x2');
    expect(error.issues[0]).toMatchObject({ line: 1, column: 6, offset: 5 });
  });

  it('refuses a board taller than the bound at the first cell of the row past it', async () => {
    // Two cells a row, three rows: the fifth cell (first of row 3) is at offset 8.
    const text = '1N~2E!2E2E';
    expect((await plugin.regenerate(file(text), options({ maxBoardSide: 3 }))).version).toBe('2');
    const error = await refusal(plugin.regenerate(file(text), options({ maxBoardSide: 2 })));
    expect(error.message).toContain('2x3');
    expect(error.issues[0]).toMatchObject({ line: 1, column: 9, offset: 8 });
  });
});

describe('peg solitaire, version 2: MAX_BOARD_SIDE', () => {
  const header = 'version 2\nmode: normal\n'; // 23 characters, so line 3 starts at offset 23

  it('refuses a row with more cells than the bound at the first cell past it (dots are not cells)', async () => {
    const text = `${header}y y e\n.e y y\n`;
    expect((await plugin.read(file(text), options({ maxBoardSide: 3 }))).analysis!.details).toMatchObject({ width: 3, height: 2 });
    const error = await refusal(plugin.read(file(text), options({ maxBoardSide: 2 })));
    expect(error.code).toBe('limit.board');
    expect(error.issues[0]).toMatchObject({ line: 3, column: 5, offset: 23 + 4 });
  });

  it('refuses more rows than the bound at the first element of the row past it (blank lines are not rows)', async () => {
    const text = `${header}y e\n\ny y\ne y\n`;
    expect((await plugin.read(file(text), options({ maxBoardSide: 3 }))).analysis!.details).toMatchObject({ width: 2, height: 3 });
    const error = await refusal(plugin.read(file(text), options({ maxBoardSide: 2 })));
    expect(error.issues[0]).toMatchObject({ line: 6, column: 1, offset: 23 + 4 + 1 + 4 });
  });

  it('checks the width again when dots are read as cells', async () => {
    // Without dots the rows differ (1 and 2 cells); counting dots they are 3 and 3: the first reading, 3 wide.
    const text = `${header}y . .\ny y .\n`;
    expect((await plugin.read(file(text), options({ maxBoardSide: 3 }))).analysis!.details).toMatchObject({ width: 3, dotReading: 'cell' });
    expect((await refusal(plugin.read(file(text), options({ maxBoardSide: 2 })))).code).toBe('limit.board');
  });
});

describe('peg solitaire: MAX_LINE_LENGTH', () => {
  it('refuses a line longer than the bound, and accepts one of the bound', async () => {
    const text = 'version 2\nmode: normal\ny y e\n';
    expect((await plugin.regenerate(file(text), options({ maxLineLength: 12 }))).version).toBe('2');
    const error = await refusal(plugin.regenerate(file(text), options({ maxLineLength: 11 })));
    expect(error.code).toBe('limit.line_length');
    expect(error.issues[0]).toMatchObject({ line: 2, column: 12, offset: 10 + 11 });
    expect((await refusal(plugin.read(file('1N~22E!2EE'), options({ maxLineLength: 9 })))).code).toBe('limit.line_length');
  });
});
