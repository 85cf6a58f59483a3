import { pegSolitairePlugin as plugin } from '../../../../src/formats/plugins/peg-solitaire/plugin.js';
import { realBoardFiles } from '../../../support/peg-solitaire/boards.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const files = realBoardFiles();
const real = (folder: string, name: string) => {
  const file = files.find((f) => f.folder === folder && f.name === name);
  if (!file) throw new Error(`no ${folder}/${name}`);
  return { bytes: file.bytes, filename: name };
};
const options = { timeBudgetMs: 2000, limits: DEFAULT_LIMITS };

describe('Peg solitaire facts', () => {
  // Counted by hand: Trapeze.brd has 4 rows of 7 cells once the leading dots (row shifts) are dropped,
  // e.g. its first row "...y y y y * * *".
  it('v2 Trapeze: 7 wide, 4 high; no date, event or rules', async () => {
    const record = await plugin.read(real('v2_head', 'Trapeze.brd'), options);
    expect(record.analysis!.facts).toEqual({ boardWidth: 7, boardHeight: 4, datePlayed: null, event: null, rules: null });
  });

  // Counted by hand: "XX222XXX!" (8 cells before !) and 7 more rows of 8 cells: 8x8.
  it('v1 Asymetric 3-3-2-2: 8x8', async () => {
    const record = await plugin.read(real('v1_e522458', 'Asymetric 3-3-2-2 Board with diagonal moves.brd'), options);
    expect(record.analysis!.facts).toMatchObject({ boardWidth: 8, boardHeight: 8 });
  });
});
