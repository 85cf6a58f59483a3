import { readFileSync } from 'node:fs';
import { barsCheckersPlugin } from '../../../../src/formats/plugins/bars-checkers/plugin.js';
import { limitOptions, refusal, textFile } from '../../../support/limits.js';

const options = limitOptions;
const file = textFile;
/** The BARS datasheet's demonstration game: 10 moves, its longest line (the comment) 93 characters (awk's length). */
const DEMO = readFileSync(new URL('../../../e2e/fixtures/demonstration.bars', import.meta.url), 'utf8');


function where(text: string, offset: number) {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1, offset };
}

describe('BARS: MAX_PLIES', () => {
  it('accepts the 10-move game with MAX_PLIES 10 and refuses it with 9 at the bracket of move 10', async () => {
    expect((await barsCheckersPlugin.read(file(DEMO), options({ maxPlies: 10 }))).analysis!.moveCount).toBe(10);
    const error = await refusal(barsCheckersPlugin.read(file(DEMO), options({ maxPlies: 9 })));
    expect(error.code).toBe('limit.plies');
    expect(error.issues[0]).toMatchObject({ ply: 10, ...where(DEMO, DEMO.lastIndexOf('[')) });
    expect((await refusal(barsCheckersPlugin.regenerate(file(DEMO), options({ maxPlies: 9 })))).code).toBe('limit.plies');
  });

  it('in the JSON form too', async () => {
    const json = '{"go": [[156, 145], [223, 234], [145, 10234, 123]]}';
    expect((await barsCheckersPlugin.read(file(json), options({ maxPlies: 3 }))).analysis!.moveCount).toBe(3);
    const error = await refusal(barsCheckersPlugin.read(file(json), options({ maxPlies: 2 })));
    expect(error.issues[0]).toMatchObject({ ply: 3, offset: json.indexOf('[145') });
  });

  it('a single move written without the outer list is one ply', async () => {
    expect((await barsCheckersPlugin.read(file('go = [156, 145]'), options({ maxPlies: 1 }))).analysis!.moveCount).toBe(1);
  });
});

describe('BARS: MAX_LINE_LENGTH and MAX_BOARD_SIDE', () => {
  it('refuses a line longer than the bound before parsing, and accepts the longest line at the bound', async () => {
    const longest = Math.max(...DEMO.split(/\r\n|\n|\r/).map((line) => line.length));
    expect(longest).toBe(93);
    expect((await barsCheckersPlugin.read(file(DEMO), options({ maxLineLength: 93 }))).analysis!.moveCount).toBe(10);
    const error = await refusal(barsCheckersPlugin.read(file(DEMO), options({ maxLineLength: 92 })));
    expect(error.code).toBe('limit.line_length');
    expect(error.issues[0]).toMatchObject({ line: 1, column: 93, offset: 92 });
  });

  it('the board is 8x8: refused only when MAX_BOARD_SIDE is below 8', async () => {
    expect((await barsCheckersPlugin.read(file(DEMO), options({ maxBoardSide: 8 }))).analysis!.moveCount).toBe(10);
    expect((await refusal(barsCheckersPlugin.read(file(DEMO), options({ maxBoardSide: 7 })))).code).toBe('limit.board');
  });
});
