import { pegSolitairePlugin as plugin, readBoardFile } from '../../../src/formats/peg-solitaire/peg-solitaire.plugin.js';
import { geometryOf } from '../../../src/rules/peg-solitaire/geometry.js';
import { classOf, parityClassesOf } from '../../../src/rules/peg-solitaire/parity-classes.js';
import { playJumps } from '../../../src/rules/peg-solitaire/play.js';
import { realBoardFiles } from '../../support/peg-solitaire/boards.js';
import { DEFAULT_LIMITS } from '../../../src/formats/limits.js';

// The first version-2 copies are the version-1 boards again (see realdata.spec.ts); solve the others.
const files = realBoardFiles().filter((f) => f.folder !== 'v2_4bf2dc7');
const GENEROUS = { timeBudgetMs: 30_000, limits: DEFAULT_LIMITS };

describe('verdicts on the real boards', () => {
  it.each(files.map((f) => [`${f.folder}/${f.name}`, f] as const))('%s: a solution replays legally to one stone on an allowed slot, or the board is proven unsolvable', async (_, file) => {
    const record = await plugin.read({ bytes: file.bytes }, GENEROUS);
    const analysis = record.analysis!;
    const { board } = readBoardFile({ bytes: file.bytes });
    const solvable = analysis.details.solvable;
    expect(solvable).not.toBe('unknown');
    if (solvable === 'yes') {
      const jumps = analysis.replay.map((ply) => ply.details as unknown as { from: { x: number; y: number }; to: { x: number; y: number } });
      const played = playJumps(board, jumps);
      const left = played.board.cells.flatMap((cell, i) => (cell.kind === 'slot' && cell.stone ? [cell] : []));
      expect(left).toHaveLength(1);
      if (analysis.details.targets !== 0) expect(left[0].target).toBe(true);
      expect(analysis.replay.at(-1)!.score).toEqual([played.points]);
    } else {
      // Every unsolvable real board is ruled out by parity: check that proof independently here.
      expect(analysis.details.unsolvableBecause).toBe('parity');
      const geometry = geometryOf(board);
      const classes = parityClassesOf(geometry);
      const occupied = geometry.slots.flatMap((p, slot) => {
        const cell = board.cells[p.y * board.width + p.x];
        return cell.kind === 'slot' && cell.stone ? [slot] : [];
      });
      const possible = geometry.slots.filter((p, slot) => {
        const cell = board.cells[p.y * board.width + p.x];
        return cell.kind === 'slot' && (analysis.details.targets === 0 || cell.target) && classOf(classes, [slot]) === classOf(classes, occupied);
      });
      expect(possible).toEqual([]);
    }
  });
});
