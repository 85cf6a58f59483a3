import { readFileSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../src/core/limits.js';
import { FormatError } from '../src/core/errors.js';
import { CheckersInterchange, replayInterchange } from '../src/formats/families/checkers/interchange.js';
import { pdnDraughtsPlugin } from '../src/formats/plugins/pdn-draughts/plugin.js';
import { readBoardFile } from '../src/formats/plugins/peg-solitaire/plugin.js';
import { buildGame, unreplayable } from '../src/formats/plugins/sgf-go/model.js';
import { parseSgf } from '../src/formats/syntaxes/sgf/index.js';
import { applyMove } from '../src/rules/checkers/apply-move.js';
import type { Move } from '../src/rules/checkers/move.js';
import { CheckersPositionHasher, checkersPositionKeys } from '../src/rules/checkers/position-key.js';
import { Position } from '../src/rules/checkers/position.js';
import { DotsGame } from '../src/rules/dots/index.js';
import { DotsPositionHasher, dotsGamePosition, dotsPositionKeys } from '../src/rules/dots/position-key.js';
import { BLACK, GoPosition, Stone, opponent } from '../src/rules/go/index.js';
import { GoPositionHasher, goPositionKeys } from '../src/rules/go/position-key.js';
import { Board, Point, SlotCell, StoneColour, cellAt, slotCell } from '../src/rules/peg-solitaire/board.js';
import { PegPositionHasher, pegPositionKeys } from '../src/rules/peg-solitaire/position-key.js';
import { solve } from '../src/rules/peg-solitaire/solver.js';
import { zobristTable } from '../src/rules/zobrist.js';
import { loadDotsSgfCorpus } from '../test/support/dots/corpus.js';
import type { DotsSgfGame } from '../test/support/dots/dots-sgf.js';
import { filesUnder } from '../test/support/files.js';
import { realBoardFiles } from '../test/support/peg-solitaire/boards.js';
import { measure } from './timing.js';
import type { Measured } from './timing.js';

/** Repeat each measurement until it has run this long, so the figure is not noise. */

/** Keeps the keys the benchmark computes alive, so that no work is optimised away. */
let sink = 0n;

/**
 * What position keys (src/rules/zobrist.ts, src/rules/<family>/position-key.ts) cost a replay, per
 * ply, on the real games of each family: the replay alone (the baseline), the replay with the
 * incremental hasher asked for the canonical key after every ply, and the replay with the keys
 * computed from scratch after every ply; all in the same run on the same plies. Also the two ways
 * of making the generator's values and of holding eight running keys, side by side.
 */
export async function run(): Promise<void> {
  generator();
  representation();
  go();
  dots();
  await checkers();
  peg();
  if (sink === 42n) console.log('');
}

// ---------------------------------------------------------------- the generator and the key type

const MASK = (1n << 64n) - 1n;

/** splitmix64 written over bigint from its definition: the same outputs as zobristTable. */
function bigintTable(count: number): BigUint64Array {
  const out = new BigUint64Array(count);
  let state = 0x7ab1a2e50c0ffee5n;
  for (let i = 0; i < count; i++) {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    out[i] = z ^ (z >> 31n);
  }
  return out;
}

function generator(): void {
  const count = 60_004; // the Dots table, the largest
  const halves = measure(() => {
    sink ^= BigInt(zobristTable(0, count).lo[count - 1]);
  });
  const big = measure(() => {
    sink ^= bigintTable(count)[count - 1];
  });
  const same = zobristTable(0, 1000);
  const reference = bigintTable(1000);
  const equal = reference.every((v, i) => v === ((BigInt(same.hi[i] >>> 0) << 32n) | BigInt(same.lo[i] >>> 0)));
  console.log(`position-keys: splitmix64, ${count.toLocaleString('en-US')} values: 32-bit halves with Math.imul ${ms(halves)} ms, over bigint ${ms(big)} ms (${(perRound(big) / perRound(halves)).toFixed(1)}x; same values: ${equal})`);
}

/**
 * Eight running keys told 2^20 random changes, the least of them found after each: as Int32 halves
 * (what the hashers keep) and as BigUint64Array elements; then the same with a bigint made of the
 * least key after each change (what the public API hands out).
 */
function representation(): void {
  const values = zobristTable(0, 5408);
  const big = new BigUint64Array(5408);
  for (let i = 0; i < big.length; i++) big[i] = (BigInt(values.hi[i] >>> 0) << 32n) | BigInt(values.lo[i] >>> 0);
  const n = 361;
  const images = new Int32Array(8 * n);
  for (let t = 0; t < 8; t++) for (let p = 0; p < n; p++) images[t * n + p] = ((p * 7 + t * 13) % n) * 2;
  const changes = new Int32Array(1 << 20);
  let seed = 12345;
  for (let i = 0; i < changes.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    changes[i] = seed % n;
  }
  const hi = new Int32Array(8);
  const lo = new Int32Array(8);
  const keys = new BigUint64Array(8);
  const run = (makeKey: boolean, halves: boolean) => () => {
    for (let i = 0; i < changes.length; i++) {
      const p = changes[i];
      const colour = i & 1;
      let best = 0;
      if (halves) {
        for (let t = 0; t < 8; t++) {
          const v = images[t * n + p] + colour;
          hi[t] ^= values.hi[v];
          lo[t] ^= values.lo[v];
        }
        for (let t = 1; t < 8; t++) {
          const a = hi[t] >>> 0;
          const b = hi[best] >>> 0;
          if (a < b || (a === b && lo[t] >>> 0 < lo[best] >>> 0)) best = t;
        }
        if (makeKey) sink ^= (BigInt(hi[best] >>> 0) << 32n) | BigInt(lo[best] >>> 0);
      } else {
        for (let t = 0; t < 8; t++) keys[t] ^= big[images[t * n + p] + colour];
        for (let t = 1; t < 8; t++) if (keys[t] < keys[best]) best = t;
        if (makeKey) sink ^= keys[best];
      }
    }
  };
  const ns = (m: Measured) => ((m.ms / m.rounds / changes.length) * 1e6).toFixed(0).padStart(4);
  console.log(
    `position-keys: 8 running keys, one change and the least key: Int32 halves ${ns(measure(run(false, true)))} ns, BigUint64Array ${ns(measure(run(false, false)))} ns; ` +
      `with a bigint of the least key: halves ${ns(measure(run(true, true)))} ns, BigUint64Array ${ns(measure(run(true, false)))} ns`,
  );
}

// ---------------------------------------------------------------- Go

interface GoGame {
  readonly size: number;
  readonly initial: Uint8Array;
  readonly moves: readonly { readonly stone: Stone; readonly point: { readonly x: number; readonly y: number } | null }[];
}

function goGames(): GoGame[] {
  const games: GoGame[] = [];
  for (const path of filesUnder('test/fixtures/realdata/go/gnugo_regression_games', '.sgf')) {
    const collection = parseSgf(readFileSync(path), DEFAULT_LIMITS);
    const tree = collection.trees[0];
    if (unreplayable(tree) !== null) continue;
    const game = buildGame(collection, tree, DEFAULT_LIMITS);
    const moves = [];
    // Setup inside the main line (rare) is left out: the bench replays moves only.
    for (let node = game.roots[0]; node !== undefined; node = node.children[0]) moves.push({ stone: node.stone, point: node.point });
    games.push({ size: game.width, initial: game.initial ? Uint8Array.from(game.initial.cells) : new Uint8Array(game.width * game.width), moves });
  }
  return games;
}

function go(): void {
  const games = goGames();
  const plies = games.reduce((sum, g) => sum + g.moves.length, 0);
  const next = (game: GoGame, i: number): Stone => (i < game.moves.length ? game.moves[i].stone : opponent(game.moves[i - 1]?.stone ?? opponent(BLACK)));
  const replay = (keys: 'none' | 'hasher' | 'scratch') => () => {
    for (const game of games) {
      const position = new GoPosition(game.size);
      position.cells.set(game.initial);
      const hasher = keys === 'hasher' ? GoPositionHasher.of({ size: game.size, cells: game.initial }, next(game, 0)) : null;
      for (let i = 0; i < game.moves.length; i++) {
        const { stone, point } = game.moves[i];
        if (point === null) position.pass();
        else {
          const outcome = position.play(stone, point.x, point.y);
          if (hasher && outcome.legal) hasher.play(point.x, point.y, stone, outcome.captured);
        }
        if (hasher) {
          hasher.setToMove(next(game, i + 1));
          sink ^= hasher.canonical().key;
        } else if (keys === 'scratch') sink ^= goPositionKeys(position, next(game, i + 1)).canonical.key;
      }
    }
  };
  report(`go, GNU Go games (${games.length}, sides 9-19)`, plies, replay('none'), replay('hasher'), replay('scratch'));
}

// ---------------------------------------------------------------- Dots

function dots(): void {
  const games: DotsSgfGame[] = loadDotsSgfCorpus()
    .map(({ game }) => game)
    .filter((game) => game.width > 0 && game.moves.length > 0);
  const plies = games.reduce((sum, g) => sum + g.moves.length, 0);
  const replay = (keys: 'none' | 'hasher' | 'scratch') => () => {
    for (const sgf of games) {
      const game = new DotsGame({ width: sgf.width, height: sgf.height, players: 2, extraMove: false });
      for (const dot of sgf.setup) game.place(dot.colour, dot.row, dot.col);
      const hasher = keys === 'hasher' ? DotsPositionHasher.ofGame(game) : null;
      for (let i = 0; i < sgf.moves.length; i++) {
        const move = sgf.moves[i];
        const outcome = game.place(move.colour, move.row, move.col);
        const toMove = i + 1 < sgf.moves.length ? sgf.moves[i + 1].colour : 1 - move.colour;
        if (hasher) {
          hasher.followMove(game, move.row, move.col, outcome);
          hasher.setToMove(toMove);
          sink ^= hasher.canonical().key;
        } else if (keys === 'scratch') sink ^= dotsPositionKeys({ ...dotsGamePosition(game), toMove }).canonical.key;
      }
    }
  };
  const sizes = new Set(games.map((g) => `${g.width}x${g.height}`));
  report(`dots, SGF games (${games.length}; ${[...sizes].slice(0, 4).join(', ')}…)`, plies, replay('none'), replay('hasher'), replay('scratch'));
}

// ---------------------------------------------------------------- draughts

async function checkers(): Promise<void> {
  const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
  const games: { start: Position; moves: Move[] }[] = [];
  for (const path of ['test/fixtures/realdata/checkers/russian/ussr1947.pdn', 'test/fixtures/realdata/checkers/russian/abatsiev.pdn']) {
    const bytes = readFileSync(path);
    for (const slice of pdnDraughtsPlugin.split!({ bytes }, options)) {
      try {
        const model = (await pdnDraughtsPlugin.toInterchange!({ bytes: bytes.subarray(slice.start, slice.end) }, options)) as CheckersInterchange;
        const replayed = replayInterchange(model);
        games.push({ start: replayed.start, moves: replayed.main.map((m) => m.move) });
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
      }
    }
  }
  const plies = games.reduce((sum, g) => sum + g.moves.length, 0);
  const replay = (keys: 'none' | 'hasher' | 'scratch') => () => {
    for (const game of games) {
      let position = game.start;
      const hasher = keys === 'hasher' ? CheckersPositionHasher.of(position) : null;
      for (const move of game.moves) {
        position = applyMove(position, move);
        if (hasher) {
          hasher.play(move);
          sink ^= hasher.canonical().key;
        } else if (keys === 'scratch') sink ^= checkersPositionKeys(position).canonical.key;
      }
    }
  };
  report(`draughts, Russian PDN games (${games.length})`, plies, replay('none'), replay('hasher'), replay('scratch'));
}

// ---------------------------------------------------------------- peg solitaire

function peg(): void {
  const games: { board: Board; jumps: readonly { from: Point; to: Point }[] }[] = [];
  for (const file of realBoardFiles()) {
    const { board } = readBoardFile({ bytes: file.bytes });
    const outcome = solve(board, { timeBudgetMs: 1e9, maxNodes: 20_000, now: () => 0 });
    if (outcome.solvable === 'yes') games.push({ board, jumps: outcome.solution });
  }
  const plies = games.reduce((sum, g) => sum + g.jumps.length, 0);
  const replay = (keys: 'none' | 'hasher' | 'scratch') => () => {
    for (const game of games) {
      // The jumps on a board of our own, as playJumps plays them (the solution is legal).
      const cells = [...game.board.cells];
      const board: Board = { ...game.board, cells };
      const hasher = keys === 'hasher' ? new PegPositionHasher(game.board) : null;
      const put = (p: Point, stone: StoneColour | null) => {
        const i = p.y * board.width + p.x;
        cells[i] = slotCell(stone, (cells[i] as SlotCell).target);
      };
      for (const { from, to } of game.jumps) {
        const stone = (cellAt(board, from.x, from.y) as SlotCell).stone;
        put(from, null);
        put({ x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 }, null);
        put(to, stone);
        if (hasher) {
          hasher.jump(from, to);
          sink ^= hasher.canonical().key;
        } else if (keys === 'scratch') sink ^= pegPositionKeys(board).canonical.key;
      }
    }
  };
  report(`peg solitaire, solutions of the real boards (${games.length})`, plies, replay('none'), replay('hasher'), replay('scratch'));
}

// ---------------------------------------------------------------- measuring


const perRound = (m: Measured): number => m.ms / m.rounds;
const ms = (m: Measured): string => perRound(m).toFixed(2);

function report(what: string, plies: number, bare: () => void, hasher: () => void, scratch: () => void): void {
  const perPly = (m: Measured) => (perRound(m) * 1000) / plies;
  const b = perPly(measure(bare));
  const h = perPly(measure(hasher));
  const s = perPly(measure(scratch));
  const us = (v: number) => v.toFixed(3).padStart(8);
  console.log(`position-keys: ${what}, ${plies.toLocaleString('en-US')} plies per round, µs per ply:`);
  console.log(`position-keys:   replay alone (baseline)                      ${us(b)}`);
  console.log(`position-keys:   replay + hasher, canonical key every ply     ${us(h)}  (keys: +${us(h - b).trim()})`);
  console.log(`position-keys:   replay + keys from scratch every ply         ${us(s)}  (keys: +${us(s - b).trim()})`);
}
