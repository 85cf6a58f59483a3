import { readFileSync } from 'node:fs';
import { filesUnder } from '../../../support/files.js';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { FormatError } from '../../../../src/core/errors.js';
import { GoInterchangeGame, withoutVariations } from '../../../../src/formats/families/go/index.js';
import { analyseGoFans } from '../../../../src/formats/plugins/gofans-xml/analysis.js';
import { interpretGoFans, standardDocument } from '../../../../src/formats/plugins/gofans-xml/import-procedure.js';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { GOFANS_SCHEMAS, STANDARD_SCHEMA } from '../../../../src/formats/plugins/gofans-xml/schemas.js';
import { sgfGoPlugin } from '../../../../src/formats/plugins/sgf-go/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { sabakiRoot } from '../../../support/go/sabaki-sgf.js';

const require = createRequire(import.meta.url);
const { validateXML } = require('xmllint-wasm') as typeof import('xmllint-wasm');
// A CommonJS package whose typings describe an ES default export; require gives the class itself.
const GoBoard = require('@sabaki/go-board') as typeof import('@sabaki/go-board').default;

const ROOT = new URL('../../../fixtures/realdata/go/gnugo_regression_games/', import.meta.url).pathname;
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const GOFANS_11 = gofansXmlPlugin.formats.find((f) => f.version === '1.1')!;

/** A game as @sabaki/sgf reads it (independently of the archive's SGF reader): size, root values, main-line moves. */
interface IndependentGame {
  readonly size: number;
  readonly root: Readonly<Record<string, string>>;
  readonly moves: readonly { readonly color: 'black' | 'white'; readonly point: { x: number; y: number } | null }[];
}

function independent(bytes: Buffer): IndependentGame {
  let node = sabakiRoot(bytes);
  const root = Object.fromEntries(Object.entries(node.data).map(([k, v]) => [k, v[0]]));
  const size = Number((root.SZ ?? '19').split(':')[0]);
  const moves: IndependentGame['moves'][number][] = [];
  for (;;) {
    for (const [id, values] of Object.entries(node.data)) {
      if (id !== 'B' && id !== 'W') continue;
      const v = values[0].trim();
      const pass = v === '' || (v === 'tt' && size <= 19);
      moves.push({ color: id === 'B' ? 'black' : 'white', point: pass ? null : { x: v.charCodeAt(0) - 97, y: v.charCodeAt(1) - 97 } });
    }
    if (node.children.length === 0) break;
    node = node.children[0];
  }
  return { size, root, moves };
}

interface ConvertedGame {
  readonly xml: string;
  readonly sgf: IndependentGame;
}

// The archive's own conversion (SGF → interchange, main line only → GoFans 1.1, Points regenerated).
const files = filesUnder(ROOT, '.sgf');
const converted: { name: string; game: ConvertedGame }[] = [];
let withSetup = 0;
beforeAll(async () => {
  for (const path of files) {
    const name = relative(ROOT, path);
    const bytes = readFileSync(path);
    const game = withoutVariations((await sgfGoPlugin.toInterchange!({ bytes }, options)) as GoInterchangeGame);
    try {
      const xml = String((await gofansXmlPlugin.fromInterchange!(game, { ...options, format: GOFANS_11 })).content);
      converted.push({ name, game: { xml, sgf: independent(bytes) } });
    } catch (error) {
      if (!(error instanceof FormatError && /setup stones/.test(error.message))) throw error;
      withSetup++;
    }
  }
});

/** Tromp–Taylor area of a @sabaki/go-board position (stones, plus empty regions reaching one colour only), counted here. */
function area(board: InstanceType<typeof GoBoard>, size: number): { black: number; white: number } {
  const count = { black: 0, white: 0 };
  const seen = new Set<string>();
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const sign = board.get([x, y]);
      if (sign === 1) count.black++;
      else if (sign === -1) count.white++;
      if (sign !== 0 || seen.has(`${x},${y}`)) continue;
      const region = [[x, y]];
      const reaches = new Set<number>();
      seen.add(`${x},${y}`);
      for (let i = 0; i < region.length; i++) {
        const [cx, cy] = region[i];
        for (const [nx, ny] of [[cx + 1, cy], [cx - 1, cy], [cx, cy + 1], [cx, cy - 1]]) {
          if (nx < 0 || ny < 0 || nx >= size || ny >= size) continue;
          const s = board.get([nx, ny]);
          if (s !== 0 && s !== null) reaches.add(s);
          else if (!seen.has(`${nx},${ny}`)) {
            seen.add(`${nx},${ny}`);
            region.push([nx, ny]);
          }
        }
      }
      if (reaches.size === 1) count[reaches.has(1) ? 'black' : 'white'] += region.length;
    }
  }
  return count;
}

describe("GNU Go's regression games as GoFans 1.1", () => {
  it('are all there: 673 files, the ones with setup stones (handicap) refused by the conversion', () => {
    expect(files.length).toBe(673);
    expect(withSetup).toBe(185);
    expect(converted.length + withSetup).toBe(673);
  });

  it('all pass Standard.xsd and the GoFans 1.1 XSD (libxml2, one run per schema)', async () => {
    for (const schema of [STANDARD_SCHEMA, GOFANS_SCHEMAS['1.1']]) {
      const result = await validateXML({
        xml: converted.map(({ game }, i) => ({ fileName: `game${i}.xml`, contents: game.xml })),
        schema: [schema.text],
        maxMemoryPages: 4096,
      });
      expect(result.errors.slice(0, 3)).toEqual([]);
      expect(result.valid).toBe(true);
    }
  });

  it('replay as legal games, and every capture agrees with an independent board implementation', () => {
    let plies = 0;
    let captures = 0;
    const illegal: string[] = [];
    const disagreements: string[] = [];
    for (const { name, game } of converted) {
      const { game: model, replay } = interpretGoFans(standardDocument(game.xml), '1.1');
      const analysis = analyseGoFans(model, replay);
      if (!analysis.verdict.legal) illegal.push(`${name}: ${analysis.verdict.problems[0]?.message}`);
      expect(analysis.moveCount).toBe(game.sgf.moves.length);

      let board = GoBoard.fromDimensions(game.sgf.size);
      analysis.replay.forEach((ply, index) => {
        const move = game.sgf.moves[index];
        if (move.point === null) return;
        const before = board;
        board = before.makeMove(move.color === 'black' ? 1 : -1, [move.point.x, move.point.y], { preventOverwrite: true, preventSuicide: true });
        const theirs: string[] = [];
        for (let y = 0; y < game.sgf.size; y++) {
          for (let x = 0; x < game.sgf.size; x++) if (before.get([x, y]) !== 0 && board.get([x, y]) === 0) theirs.push(`${x},${y}`);
        }
        // The raw coordinates of what the replay removed (ply.captured names them as players do, `A9`).
        const ours = ((ply.details?.removes ?? []) as { x: number; y: number }[]).map((p) => `${p.x},${p.y}`).sort();
        expect(ours).toHaveLength(ply.captured.length);
        if (theirs.sort().join(' ') !== ours.join(' ')) disagreements.push(`${name} ply ${ply.ply}: ours [${ours}] theirs [${theirs}]`);
        captures += ours.length;
      });
      plies += analysis.moveCount;
    }
    expect(illegal).toEqual([]);
    expect(disagreements).toEqual([]);
    // The corpus is real play: tens of thousands of moves and thousands of captures were compared.
    console.log(`${converted.length} games, ${plies} plies, ${captures} captured stones compared`);
    expect(plies).toBeGreaterThan(50_000);
    expect(captures).toBeGreaterThan(1_000);
  });

  it("give each player the outcome the file records: a resignation (RE[B+R]) lost for the loser, won for the winner; after two passes the Points (area) decide; else unfinished", () => {
    let resignations = 0;
    let counted = 0;
    const wrong: string[] = [];
    for (const { name, game } of converted) {
      // Read from the SGF's own RE and moves, not from the converted file: B+R / W+Resign name the winner;
      // after two passes the Points the conversion regenerates are the area score, counted here on
      // @sabaki/go-board's final position (white gets the komi).
      const re = /^([BW])\+R(esign)?$|^(White|Black) resigns/i.exec((game.sgf.root.RE ?? '').trim());
      const moves = game.sgf.moves;
      const twoPasses = moves.length >= 2 && moves.at(-1)!.point === null && moves.at(-2)!.point === null;
      let expected = ['unfinished', 'unfinished'];
      if (re !== null) {
        const blackWon = re[1] ? re[1].toUpperCase() === 'B' : re[3].toLowerCase() === 'white';
        expected = blackWon ? ['won', 'lost'] : ['lost', 'won'];
        resignations++;
      } else if (twoPasses) {
        let board = GoBoard.fromDimensions(game.sgf.size);
        for (const m of moves) if (m.point) board = board.makeMove(m.color === 'black' ? 1 : -1, [m.point.x, m.point.y]);
        const { black, white } = area(board, game.sgf.size);
        const komi = Number(game.sgf.root.KM ?? 0);
        expected = black === white + komi ? ['drawn', 'drawn'] : black > white + komi ? ['won', 'lost'] : ['lost', 'won'];
        if (black === 0 && white + komi === 0) expected = ['unfinished', 'unfinished'];
        counted++;
      }
      const { game: model, replay } = interpretGoFans(standardDocument(game.xml), '1.1');
      const actual = analyseGoFans(model, replay).players.map((p) => p.outcome);
      if (actual.join() !== expected.join()) wrong.push(`${name}: RE[${game.sgf.root.RE ?? ''}] gives ${actual}`);
    }
    expect(wrong).toEqual([]);
    expect(resignations).toBeGreaterThan(0);
    expect(counted).toBeGreaterThan(0);
  });

  it('read and regenerate through the whole plugin (both XSDs per file) for a sample of games', async () => {
    const sample = converted.filter((_, i) => i % 150 === 0);
    for (const { name, game } of sample) {
      const record = await gofansXmlPlugin.read({ bytes: Buffer.from(game.xml), filename: name }, { timeBudgetMs: 1000, limits: DEFAULT_LIMITS });
      expect(record.analysis?.verdict.legal).toBe(true);
      const regenerated = await gofansXmlPlugin.regenerate({ bytes: Buffer.from(game.xml), filename: name }, { timeBudgetMs: 1000, limits: DEFAULT_LIMITS });
      expect(regenerated.version).toBe('2.1');
      // The regenerated file passes the 2.1 XSD (read validates it) and replays to the same captures.
      const again = await gofansXmlPlugin.read({ bytes: Buffer.from(regenerated.content) }, { timeBudgetMs: 1000, limits: DEFAULT_LIMITS });
      expect(again.version).toBe('2.1');
      expect(again.analysis?.replay.map((p) => p.captured)).toEqual(record.analysis?.replay.map((p) => p.captured));
      // Removes and Points are now the regenerated ones, so nothing disagrees any more.
      expect(again.analysis?.verdict.consistent).toBe(true);
      expect(again.analysis?.players.map((p) => p.declaredPoints)).toEqual(record.analysis?.players.map((p) => p.points));
    }
  });
});
