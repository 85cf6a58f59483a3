import { barsCheckersPlugin } from '../../../../src/formats/plugins/bars-checkers/plugin.js';
import type { GameAnalysis } from '../../../../src/formats/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

async function outcomes(text: string): Promise<{ outcomes: [string | null, string | null | undefined][]; analysis: GameAnalysis }> {
  const analysis = (await barsCheckersPlugin.read({ bytes: Buffer.from(text, 'utf8') }, options)).analysis!;
  return { analysis, outcomes: analysis.players.map((p) => [p.color, p.outcome]) };
}

/** An area_monitor with the given pieces (`[row, column, code]`, row 0 = rank 8, column 0 = file a), 9 on light squares. */
function board(pieces: [number, number, number][]): string {
  const rows = Array.from({ length: 8 }, (_, r) => Array.from({ length: 8 }, (_, c): number => ((r + c) % 2 === 1 ? 0 : 9)));
  for (const [r, c, code] of pieces) rows[r][c] = code;
  return `area_monitor = [${rows.map((row) => `[${row.join(', ')}]`).join(',\n  ')}]`;
}

// Numbers are a b c y x: capture flag, king, colour (1 white, 2 black), row, column.
describe('BARS outcomes', () => {
  it('white takes the last black piece (c3:e5 over d4): white won, black lost', async () => {
    const { outcomes: o } = await outcomes(`${board([[5, 2, 1], [4, 3, 2]])}\ngo = [[152, 10243, 134]]`);
    expect(o).toEqual([
      ['white', 'won'],
      ['black', 'lost'],
    ]);
  });

  it('black takes the last white piece (c5:e3 over d4): black won, white lost', async () => {
    // Black man c5 (row 3, column 2), white man d4 (row 4, column 3); black moves first since the first square holds a black man.
    const { outcomes: o } = await outcomes(`${board([[3, 2, 2], [4, 3, 1]])}\ngo = [[232, 10143, 254]]`);
    expect(o).toEqual([
      ['white', 'lost'],
      ['black', 'won'],
    ]);
  });

  it('black has pieces but no move: black lost', async () => {
    // Black a5 is blocked by b4 and cannot jump it (c3 is occupied); white plays h2-g3 and black is to move.
    const { outcomes: o } = await outcomes(`${board([[3, 0, 2], [4, 1, 1], [5, 2, 1], [6, 7, 1]])}\ngo = [[167, 156]]`);
    expect(o).toEqual([
      ['white', 'won'],
      ['black', 'lost'],
    ]);
  });

  it('a game that stops while the side to move can still play is unfinished (BARS records no resignation or draw)', async () => {
    // The seed's demo game: ten plies from the initial position, both sides keep most of their pieces.
    const demo =
      'go = [[156, 145], [223, 234], [145, 10234, 123], [214, 10123, 232], [152, 141], [205, 214], [141, 10232, 123, 10214, 1105], [203, 214], [1105, 10214, 1123], [212, 11123, 234]]';
    for (const text of [demo, 'go = []']) {
      expect((await outcomes(text)).outcomes).toEqual([
        ['white', 'unfinished'],
        ['black', 'unfinished'],
      ]);
    }
  });

  it('an illegal move leaves the game unfinished, unless it was written after the game had ended', async () => {
    // Ply 3 (a3-b4) ignores the mandatory capture d4:f6: the position after it is unknown.
    const illegal = await outcomes('go = [[152, 143], [225, 234], [150, 141], [223, 232]]');
    expect(illegal.analysis.verdict.legal).toBe(false);
    expect(illegal.outcomes).toEqual([
      ['white', 'unfinished'],
      ['black', 'unfinished'],
    ]);
    // Black writes a move after white took its last piece: illegal, but the game was already won.
    const afterEnd = await outcomes(`${board([[5, 2, 1], [4, 3, 2]])}\ngo = [[152, 10243, 134], [134, 123]]`);
    expect(afterEnd.analysis.verdict.legal).toBe(false);
    expect(afterEnd.outcomes).toEqual([
      ['white', 'won'],
      ['black', 'lost'],
    ]);
  });
});
