import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cell, DotsGame } from '../../../src/rules/dots/index.js';
import { vkDotsPlugin } from '../../../src/formats/plugins/vk-dots/plugin.js';
import { CorpusGame, loadDotsSgfCorpus, vkCodeOf } from '../../support/dots/corpus.js';
import { parseDotsSgf } from '../../support/dots/dots-sgf.js';
import { parsePointsXt } from '../../support/dots/pointsxt.js';
import { replaySgf } from '../../support/dots/replay-sgf.js';
import { DEFAULT_LIMITS } from '../../../src/core/limits.js';

const corpus = loadDotsSgfCorpus();
const byName = (name: string): CorpusGame => corpus.find((g) => g.name.endsWith(name))!;
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const key = ([row, col]: readonly [number, number]): string => `${row},${col}`;
const cellKey = (c: Cell): string => `${c.row},${c.col}`;

describe('the SGF corpus and its conversion to VK game codes', () => {
  it('reads all 67 SGF games', () => {
    // 65 kropla games + 1 oppai-rs game + 1 playdots.ru game among the PointsXT files.
    expect(corpus).toHaveLength(67);
  });

  // Which games convert, and why the others do not: test/formats/families/dots/conversions.spec.ts.
  it('replays every converted code through the VK plugin, and its regenerated code is consistent and stable', async () => {
    let converted = 0;
    for (const { name, game } of corpus) {
      const code = await vkCodeOf(name);
      if (code === null) continue;
      converted++;
      const upload = { bytes: Buffer.from(code) };
      const record = await vkDotsPlugin.read(upload, options);
      expect([name, record.analysis!.moveCount]).toEqual([name, game.moves.length + game.setup.length]);
      const regenerated = String((await vkDotsPlugin.regenerate(upload, options)).content);
      const again = await vkDotsPlugin.read({ bytes: Buffer.from(regenerated) }, options);
      expect([name, again.analysis!.verdict.consistent]).toEqual([name, true]);
      expect([name, String((await vkDotsPlugin.regenerate({ bytes: Buffer.from(regenerated) }, options)).content)]).toEqual([name, regenerated]);
    }
    expect(converted).toBe(57);
  });
});

describe('replaying the real games with the engine on their own fields', () => {
  it('draws every chain as a closed line of live dots of the capturer, one cell apart', () => {
    let surrounds = 0;
    for (const { name, game } of corpus) {
      if (!(game.width > 0)) continue;
      const engine = new DotsGame({ width: game.width, height: game.height, players: 2, extraMove: false });
      for (const dot of game.setup) engine.place(dot.colour, dot.row, dot.col);
      game.moves.forEach((move, index) => {
        const outcome = engine.place(move.colour, move.row, move.col);
        if (!outcome.legal) return;
        for (const surround of outcome.surrounds) {
          surrounds++;
          const chain = surround.chain;
          if (chain.length < 4) throw new Error(`${name} move ${index + 1}: a chain of ${chain.length} dots`);
          chain.forEach((cell, i) => {
            const next = chain[(i + 1) % chain.length];
            const apart = Math.max(Math.abs(cell.row - next.row), Math.abs(cell.col - next.col));
            if (apart !== 1) throw new Error(`${name} move ${index + 1}: chain link ${cellKey(cell)} -> ${cellKey(next)}`);
            if (!engine.board.isLiveDot(engine.field.point(cell.row, cell.col), surround.player)) {
              throw new Error(`${name} move ${index + 1}: chain dot ${cellKey(cell)} is not a live dot of the capturer`);
            }
          });
        }
      });
      expect([name, engine.scores.every((score) => score >= 0)]).toEqual([name, true]);
    }
    expect(surrounds).toBeGreaterThan(300);
  });

  it('agrees with zagram352562, a game played with forced surrounds (MustSurr=1)', () => {
    const { name, game } = byName('zagram352562.sgf');
    const { moves, game: engine } = replaySgf(game);
    // The oppai-rs test of this game: 39x32, 260 dots (16 setup + 244 moves), White captured 60
    // (oppai-rs names White "Red"), Black 3.
    expect([game.width, game.height, game.setup.length + game.moves.length]).toEqual([39, 32, 260]);
    expect(engine.scores).toEqual([3, 60]);
    // Every surround the file declares happens at the same move with the same dots, and no other
    // — once our chains drop the out-and-back walks around the surrounder's own peninsulas, which
    // border the area (so the spec's "boundary dots" include them) but which zagram leaves out.
    let peninsulas = 0;
    for (const { ply, move, outcome } of moves) {
      expect([name, ply, outcome.legal]).toEqual([name, ply, true]);
      if (!outcome.legal) continue;
      const ours = outcome.surrounds.map((s) => s.chain.map(cellKey));
      const simple = ours.map(withoutExcursions);
      if (simple.flat().length !== ours.flat().length) peninsulas++;
      const theirs = move.chains.map((chain) => chain.map(key));
      expect([ply, simple.flat().sort()]).toEqual([ply, [...new Set(theirs.flat())].sort()]);
    }
    // Only the last move, the big final surround, walks around peninsulas.
    expect(peninsulas).toBe(1);
  });

  it('agrees with szkrab.net.pl game 1295: the same four surrounds and the result B+17', () => {
    const { game } = byName('1295.sgf');
    expect(game.root.RE).toBe('B+17');
    const { moves, game: engine } = replaySgf(game);
    const ours = moves.filter((m) => m.outcome.legal && m.outcome.surrounds.length > 0).map((m) => m.ply);
    const declared = moves.filter((m) => m.move.chains.length > 0).map((m) => m.ply);
    expect(declared).toHaveLength(4);
    expect(ours).toEqual(declared);
    expect(engine.scores).toEqual([17, 0]);
  });

  it('captures at once where a Kropki game (surrounds optional) declared the surround a move later', () => {
    // 1cEYglg5R: White closes the diamond around Black (1,5) with (0,5) at move 52; the file
    // declares that very diamond only with White's next move, 54.
    const { game } = byName('1cEYglg5R.sgf');
    const { moves } = replaySgf(game);
    const at52 = moves[51];
    expect(at52.move.chains).toEqual([]);
    expect(at52.outcome.legal && at52.outcome.surrounds.map((s) => s.captured.map(cellKey))).toEqual([['1,5']]);
    const declared = new Set(moves[53].move.chains.flat().map(key));
    const ours = new Set(at52.outcome.legal ? at52.outcome.surrounds[0].chain.map(cellKey) : []);
    expect([...ours].sort()).toEqual([...declared].sort());
  });

  it('writes chains the other way round from the SGF files (VK: area on the left; SGF: area on the right)', () => {
    // 1295.sgf move B[el.elekfjgjhiijikilhmgnfmel]: compare the cyclic order of the same dots.
    const { game } = byName('1295.sgf');
    const { moves } = replaySgf(game);
    const move = moves.find((m) => m.move.chains.length > 0)!;
    const declared = move.move.chains[0].map(key);
    const cycle = declared[0] === declared[declared.length - 1] ? declared.slice(0, -1) : declared;
    const ours = move.outcome.legal ? move.outcome.surrounds[0].chain.map(cellKey) : [];
    const start = ours.indexOf(cycle[0]);
    const rotated = [...ours.slice(start), ...ours.slice(0, start)];
    expect([rotated[0], ...rotated.slice(1).reverse()]).toEqual(cycle);
  });
});

/** A chain with every walk that leaves a dot and comes back to it removed: a simple cycle. */
function withoutExcursions(chain: readonly string[]): string[] {
  const path: string[] = [];
  for (const dot of chain) {
    const seen = path.indexOf(dot);
    if (seen >= 0) path.length = seen;
    path.push(dot);
  }
  return path;
}

describe('PointsXT games (39x32, binary)', () => {
  const folder = 'test/fixtures/realdata/dots/KvanTTT-Dots-Game-AI';
  const files = readdirSync(folder).filter((name) => name.endsWith('.sav'));

  it('replays all 7 files without an illegal move', () => {
    expect(files).toHaveLength(7);
    for (const file of files) {
      const { moves } = replaySgf(parsePointsXt(readFileSync(join(folder, file))));
      expect([file, moves.filter((m) => !m.outcome.legal).length]).toEqual([file, 0]);
    }
  });

  it('captures 179 and 20 in VeryLongGame.sav, as the Dots-Game-AI tests of that file assert', () => {
    const game = parsePointsXt(readFileSync(join(folder, 'DotsGame.Tests_VeryLongGame.sav')));
    expect(game.moves).toHaveLength(661);
    expect(replaySgf(game).game.scores).toEqual([179, 20]);
  });

  it('reads the cross of PointsXtSimple.sav: four dots around the centre, alternating', () => {
    const game = parsePointsXt(readFileSync(join(folder, 'DotsGame.Formtas.Tests_PointsXtSimple.sav')));
    expect(game.moves.map((m) => [m.colour, m.row, m.col])).toEqual([
      [0, 16, 18],
      [1, 16, 19],
      [0, 15, 19],
      [1, 15, 18],
    ]);
  });
});

describe('final scores against the results the files write', () => {
  it.each([
    // szkrab.net.pl and playdots.ru games written with a numeric result (kropla's *_mod files are
    // edited copies of 6492 that keep its result, so they are left out).
    ['1295.sgf', 'B+17'],
    ['6492.sgf', 'B+16'],
    ['DotsGame.Formtas.Tests_FullSgfWithStop.sgf', 'B+1'],
  ])('%s: the capture difference is %s', (name, result) => {
    const { game } = byName(name);
    expect(game.root.RE).toBe(result);
    const [black, white] = replaySgf(game).game.scores;
    expect(`B+${black - white}`).toBe(result);
  });
});

describe('the parser', () => {
  it('reads several dots in one property (playdots.ru) and the cross setup', () => {
    const text = readFileSync('test/fixtures/realdata/dots/KvanTTT-Dots-Game-AI/DotsGame.Formtas.Tests_FullSgfWithStop.sgf', 'utf8');
    const game = parseDotsSgf(text);
    expect([game.width, game.height]).toEqual([39, 32]);
    expect(game.setup).toHaveLength(4);
    // ... ;B[ta] ;W[qh][qi]) : the last node holds two White dots.
    expect(game.moves.slice(-2).map((m) => [m.colour, m.row, m.col])).toEqual([
      [1, 7, 16],
      [1, 8, 16],
    ]);
  });
});
