import { readFileSync } from 'node:fs';
import { filesUnder } from '../../support/files.js';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { analyseGoFans } from '../../../src/formats/gofans-xml/analysis.js';
import { interpretGoFans, standardDocument } from '../../../src/formats/gofans-xml/import-procedure.js';
import { gofansXmlPlugin } from '../../../src/formats/gofans-xml/plugin.js';
import { GOFANS_SCHEMAS, STANDARD_SCHEMA } from '../../../src/formats/gofans-xml/schemas.js';
import { ConvertedGame, sgfToGoFans11 } from '../../support/go/sgf-to-gofans.js';
import { DEFAULT_LIMITS } from '../../../src/formats/limits.js';

const require = createRequire(import.meta.url);
const { validateXML } = require('xmllint-wasm') as typeof import('xmllint-wasm');
// A CommonJS package whose typings describe an ES default export; require gives the class itself.
const GoBoard = require('@sabaki/go-board') as typeof import('@sabaki/go-board').default;

const ROOT = new URL('../../fixtures/realdata/go/gnugo_regression_games/', import.meta.url).pathname;

const files = filesUnder(ROOT, '.sgf');
const converted: { name: string; game: ConvertedGame }[] = [];
let withSetup = 0;
for (const path of files) {
  const name = relative(ROOT, path);
  // Some of the games carry Latin-1 names; the moves are ASCII either way.
  const game = sgfToGoFans11(readFileSync(path, 'latin1'), name);
  if (game === null) withSetup++;
  else converted.push({ name, game });
}

describe("GNU Go's regression games as GoFans 1.1", () => {
  it('are all there: 673 files, the ones with setup stones (handicap) left out', () => {
    expect(files.length).toBe(673);
    expect(withSetup).toBeGreaterThan(0);
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
      expect(analysis.moveCount).toBe(game.moves.length);

      let board = GoBoard.fromDimensions(game.sgf.size);
      analysis.replay.forEach((ply, index) => {
        const move = game.moves[index];
        if (move.point === null) return;
        const before = board;
        board = before.makeMove(move.color === 'black' ? 1 : -1, [move.point.x, move.point.y], { preventOverwrite: true, preventSuicide: true });
        const theirs: string[] = [];
        for (let y = 0; y < game.sgf.size; y++) {
          for (let x = 0; x < game.sgf.size; x++) if (before.get([x, y]) !== 0 && board.get([x, y]) === 0) theirs.push(`${x},${y}`);
        }
        const ours = [...ply.captured].sort();
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

  it("give each player the outcome of the SGF result: a resignation (RE[B+R]) lost for the loser, won for the winner; no score recorded, unfinished", () => {
    let resignations = 0;
    const wrong: string[] = [];
    for (const { name, game } of converted) {
      // Read from the SGF's own RE, not from the converted file: B+R / W+Resign name the winner.
      const re = /^([BW])\+R(esign)?$/i.exec((game.sgf.root.RE ?? '').trim());
      const expected = re === null ? ['unfinished', 'unfinished'] : re[1].toUpperCase() === 'B' ? ['won', 'lost'] : ['lost', 'won'];
      if (re !== null) resignations++;
      const { game: model, replay } = interpretGoFans(standardDocument(game.xml), '1.1');
      const actual = analyseGoFans(model, replay).players.map((p) => p.outcome);
      if (actual.join() !== expected.join()) wrong.push(`${name}: RE[${game.sgf.root.RE ?? ''}] gives ${actual}`);
    }
    expect(wrong).toEqual([]);
    expect(resignations).toBeGreaterThan(0);
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
