import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import type { GameRecord } from '../../../../src/formats/plugin.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';
import { sgfGoPlugin } from '../../../../src/formats/plugins/sgf-go/plugin.js';
import { filesUnder } from '../../../support/files.js';
import { SabakiNode, expectedOutcomes, firstValue, sabakiRoot } from '../../../support/go/sabaki-sgf.js';
import { FOX_GAMES, describeWithRealdata } from '../../../support/realdata.js';

/*
 * Every real Go SGF file: GNU Go's regression games (the project's copies in test/fixtures/realdata),
 * the games written for the tests in the Fox client's shape (test/fixtures/written/fox-like) and the
 * Fox games themselves (read from TABULA_REALDATA, never copied; skipped, saying so, where they are
 * not), checked against what independent code reads in them: @sabaki/sgf for the tree and
 * properties, @sabaki/go-board for every capture and its legality.
 */
const require = createRequire(import.meta.url);
const GoBoard = require('@sabaki/go-board') as typeof import('@sabaki/go-board').default;
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

/** What the test reads itself: the root and the main line by @sabaki/sgf. */
function independent(bytes: Buffer) {
  const root = sabakiRoot(bytes);
  const line: SabakiNode[] = [root];
  while (line[line.length - 1].children.length > 0) line.push(line[line.length - 1].children[0]);
  return { root: root.data, line };
}

const first = firstValue;

/** A corpus of Go SGF files and what the test knows of it beforehand. */
interface Corpus {
  readonly folder: string;
  readonly count: number;
  /** Whether an integer KM of three digits or more is komi in hundredths, as the Fox client writes it. */
  readonly komiInHundredths: boolean;
  /** Games whose RE names a winner or a draw; main-line plies; stones captured in them. */
  readonly decided: number;
  readonly plies: number;
  readonly captured: number;
}

/** The checks of one corpus, inside a describe. */
function checksOf(corpus: Corpus): void {
  const files = filesUnder(corpus.folder, '.sgf');
  /** A file's path below its corpus folder, for messages. */
  const shown = (path: string) => relative(corpus.folder, path);
  const records = new Map<string, GameRecord>();

  beforeAll(async () => {
    for (const path of files) records.set(path, await sgfGoPlugin.read({ bytes: readFileSync(path), filename: path }, options));
  });

  it(`are all there: ${corpus.count} games, each detected by this plugin only`, () => {
    expect(files.length).toBe(corpus.count);
    const wrong: string[] = [];
    for (const path of files) {
      const claimants = FORMAT_PLUGINS.filter((plugin) => plugin.detect({ bytes: readFileSync(path) })).map((p) => p.id);
      if (claimants.join() !== 'sgf-go') wrong.push(`${shown(path)}: ${claimants.join() || 'none'}`);
    }
    expect(wrong).toEqual([]);
  });

  it('are all indexed and replay as legal games', () => {
    const notIndexed = [...records].filter(([, r]) => r.analysis === undefined).map(([p, r]) => `${shown(p)}: ${r.notIndexedReason}`);
    expect(notIndexed).toEqual([]);
    const illegal = [...records].filter(([, r]) => !r.analysis!.verdict.legal).map(([p, r]) => `${shown(p)}: ${r.analysis!.verdict.problems[0].message}`);
    expect(illegal).toEqual([]);
  });

  it('name the players, board, komi, date and event as the files write them', () => {
    const wrong: string[] = [];
    for (const [path, record] of records) {
      const { root } = independent(readFileSync(path));
      const a = record.analysis!;
      const size = Number(first(root, 'SZ') ?? 19);
      const km = first(root, 'KM');
      // The Fox client writes komi in hundredths (the corpus README: KM[650]/KM[750] = 6.5/7.5).
      const komi = km === null ? null : corpus.komiInHundredths && /^\d{3,}$/.test(km) ? Number(km) / 100 : Number(km);
      const got = [a.players.map((p) => p.name), a.facts.boardWidth, a.facts.boardHeight, a.details.komi, a.facts.event];
      const want = [[first(root, 'PB'), first(root, 'PW')], size, size, komi, first(root, 'EV')];
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${shown(path)}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      const dt = first(root, 'DT');
      if (dt !== null && /^\d{4}-\d{2}-\d{2}$/.test(dt) && a.facts.datePlayed !== dt) wrong.push(`${shown(path)}: date ${a.facts.datePlayed} for DT[${dt}]`);
    }
    expect(wrong).toEqual([]);
  });

  it('index the recorded result: each player\'s outcome is the one RE names, never a count of the board', () => {
    const wrong: string[] = [];
    let decided = 0;
    for (const [path, record] of records) {
      const { root } = independent(readFileSync(path));
      const want = expectedOutcomes(first(root, 'RE'));
      if (want[0] !== 'unfinished') decided++;
      const got = record.analysis!.players.map((p) => p.outcome);
      if (got.join() !== want.join()) wrong.push(`${shown(path)}: RE[${first(root, 'RE')}] gives ${got}`);
    }
    expect(wrong).toEqual([]);
    expect(decided).toBe(corpus.decided);
  });

  it('hand over every comment at the ply of its node, and GC, GN, PC, AN, SO at ply 0, as @sabaki/sgf finds them in the whole tree', () => {
    const wrong: string[] = [];
    let games = 0;
    let texts = 0;
    const key = (t: { ply: number; text: string }) => `${t.ply}\u0000${t.text}`;
    for (const [path, record] of records) {
      const want: string[] = [];
      const pending = [{ node: sabakiRoot(readFileSync(path)), before: 0 }];
      while (pending.length > 0) {
        const { node, before } = pending.pop()!;
        const ply = before + ['B', 'W'].filter((id) => (node.data[id]?.length ?? 0) > 0).length;
        for (const [id, values] of Object.entries(node.data)) {
          const at = id === 'C' ? ply : ['GC', 'GN', 'PC', 'AN', 'SO'].includes(id) ? 0 : -1;
          if (at >= 0) for (const value of values) if (value.trim() !== '') want.push(key({ ply: at, text: value.trim() }));
        }
        for (const child of node.children) pending.push({ node: child, before: ply });
      }
      // @sabaki/sgf writes line ends as \n; the plugin keeps them as the file writes them (\r\n in some).
      const got = (record.analysis!.texts ?? []).map((t) => key({ ply: t.ply, text: t.text.replace(/\r\n?/g, '\n') }));
      got.sort();
      want.sort();
      const differ = got.findIndex((t, i) => t !== want[i]);
      if (differ >= 0 || got.length !== want.length) wrong.push(`${shown(path)}: ${JSON.stringify(got[differ])}, @sabaki/sgf finds ${JSON.stringify(want[differ])}`);
      if (got.length > 0) games++;
      texts += got.length;
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    console.log(`${games} of ${records.size} files write texts, ${texts} in all`);
    // Every corpus here has commented games (GNU Go's and the Fox client's write C, PC, GN).
    expect(games).toBeGreaterThan(0);
  });

  it('replay the main line move for move, every capture agreeing with @sabaki/go-board (setup stones included)', () => {
    let plies = 0;
    let captured = 0;
    const wrong: string[] = [];
    for (const [path, record] of records) {
      const { root, line } = independent(readFileSync(path));
      const size = Number(first(root, 'SZ') ?? 19);
      let board = GoBoard.fromDimensions(size);
      const moves: { sign: 1 | -1; value: string }[] = [];
      const a = record.analysis!;
      let index = 0;
      for (const node of line) {
        for (const [id, sign] of [['AB', 1], ['AW', -1], ['AE', 0]] as const) {
          for (const v of node.data[id] ?? []) board.set([v.charCodeAt(0) - 97, v.charCodeAt(1) - 97], sign);
        }
        for (const [id, values] of Object.entries(node.data)) {
          if (id !== 'B' && id !== 'W') continue;
          moves.push({ sign: id === 'B' ? 1 : -1, value: values[0] });
          const ply = a.replay[index++];
          const value = values[0].trim();
          if (value === '' || (value === 'tt' && size <= 19)) {
            if (ply?.move !== 'pass') wrong.push(`${shown(path)} ply ${index}: pass read as ${ply?.move}`);
            continue;
          }
          const before = board;
          try {
            board = before.makeMove(id === 'B' ? 1 : -1, [value.charCodeAt(0) - 97, value.charCodeAt(1) - 97], { preventOverwrite: true, preventSuicide: true, preventKo: true });
          } catch (error) {
            wrong.push(`${shown(path)} ply ${index}: go-board refuses ${id}[${value}]: ${(error as Error).message}`);
            continue;
          }
          const theirs: string[] = [];
          for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (before.get([x, y]) !== 0 && board.get([x, y]) === 0) theirs.push(String.fromCharCode(97 + x, 97 + y));
          if (ply?.move !== value || [...ply.captured].sort().join() !== theirs.sort().join()) {
            wrong.push(`${shown(path)} ply ${index}: ${ply?.move} took [${ply?.captured}], go-board ${value} took [${theirs}]`);
          }
          captured += theirs.length;
        }
      }
      if (a.moveCount !== moves.length) wrong.push(`${shown(path)}: ${a.moveCount} plies, ${moves.length} moves in the main line`);
      const tally = [0, 0];
      for (const ply of a.replay) tally[ply.player!] += ply.captured.length;
      expect(a.players.map((p) => p.captures)).toEqual(tally);
      plies += moves.length;
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    console.log(`${records.size} files, ${plies} main-line plies, ${captured} captured stones compared with @sabaki/go-board`);
    expect([plies, captured]).toEqual([corpus.plies, corpus.captured]);
  });
}

// The counts of the two real corpora are the test's own (RE read plainly, @sabaki/sgf's main lines,
// @sabaki/go-board's captures); together they make the 152,735 plies and 11,160 stones of docs/formats/sgf-go.md.
describe('real Go SGF files: GNU Go\'s regression games', () => {
  checksOf({ folder: 'test/fixtures/realdata/go/gnugo_regression_games', count: 673, komiInHundredths: false, decided: 671, plies: 127_917, captured: 9_507 });
});

describe('Go SGF files written for the tests in the Fox client\'s shape', () => {
  // Read by hand from the three files: all three decided (B+R, W+2.5, W+R); 13 + 14 + 10 moves; one stone taken in each of the first two.
  checksOf({ folder: 'test/fixtures/written/fox-like', count: 3, komiInHundredths: true, decided: 3, plies: 37, captured: 2 });
});

describeWithRealdata('real Go SGF files: the Fox games', FOX_GAMES, (folder) => {
  checksOf({ folder, count: 130, komiInHundredths: true, decided: 130, plies: 24_818, captured: 1_653 });
});
