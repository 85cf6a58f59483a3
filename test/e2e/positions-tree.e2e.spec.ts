import { createRequire } from 'node:module';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { seeded, turnRows } from '../support/positions/grids.js';
import type { TransformName } from '../../src/rules/symmetry.js';
import { TREE_LIMITS } from '../../src/positions/position-tree.builder.js';

/*
 * The explorer as a dictionary (GET/POST /positions/tree). Go games made here share their openings
 * (each ply picks among a few points, most often the first), some written turned by a symmetry of
 * the board; their stones stand on points two apart, so no stone is ever captured. The tree is read
 * back by @sabaki/sgf, and at every node its moves and counts are checked against a brute force
 * written here (every game replayed, each position compared under the eight symmetries, the games
 * reaching a node's position counted by the position after their next move) and against
 * POST /positions/explorer at that position. A draughts tree is read by a PDN reader written here.
 */
const require = createRequire(import.meta.url);
const sabaki = require('@sabaki/sgf') as { parse(text: string): SgfNode[] };
interface SgfNode {
  data: Record<string, string[]>;
  children: SgfNode[];
}

const SIZE = 19;
const NAMES: TransformName[] = ['identity', 'rotate90', 'rotate180', 'rotate270', 'mirrorX', 'mirrorY', 'transpose', 'antiTranspose'];
type Rows = number[][];
interface Board {
  readonly rows: Rows;
  /** 1 black, -1 white. */
  readonly toMove: number;
}
interface Game {
  readonly moves: [number, number][];
  /** The winner: 'black', 'white' or 'unknown'. */
  readonly result: string;
  readonly year: number;
  /** The position's text under its least turn, after each ply (0: the empty board). */
  readonly canon: string[];
}

/** SGF's letters: a–z 0–25, A–Z 26–51. */
const letter = (n: number) => String.fromCharCode(n < 26 ? 97 + n : 65 + n - 26);
const point = (x: number, y: number) => `${letter(x)}${letter(y)}`;
const parsePoint = (value: string): [number, number] => [value.charCodeAt(0) - 97, value.charCodeAt(1) - 97];
const text = (board: Board) => `${board.toMove}|${board.rows.map((row) => row.join('')).join('/')}`;
/** The position up to the board's symmetries: the least text of its eight turns. */
const canonOf = (board: Board) => NAMES.map((name) => text({ rows: turnRows(board.rows, name), toMove: board.toMove })).sort()[0];
const empty = (): Board => ({ rows: Array.from({ length: SIZE }, () => new Array<number>(SIZE).fill(0)), toMove: 1 });
const play = (board: Board, [x, y]: [number, number]): Board => {
  const rows = board.rows.map((row) => [...row]);
  rows[y][x] = board.toMove;
  return { rows, toMove: -board.toMove };
};
/** A point turned by each symmetry, written out here (not the archive's table). */
const TURNS: ((x: number, y: number) => [number, number])[] = [
  (x, y) => [x, y],
  (x, y) => [SIZE - 1 - y, x],
  (x, y) => [SIZE - 1 - x, SIZE - 1 - y],
  (x, y) => [y, SIZE - 1 - x],
  (x, y) => [SIZE - 1 - x, y],
  (x, y) => [x, SIZE - 1 - y],
  (x, y) => [y, x],
  (x, y) => [SIZE - 1 - y, SIZE - 1 - x],
];

/** The SGF setup of a board, as POST /positions/explorer takes it. */
const setupOf = (board: Board) => {
  const points = (sign: number) => board.rows.flatMap((row, y) => row.flatMap((cell, x) => (cell === sign ? [`[${point(x, y)}]`] : [])));
  const black = points(1);
  const white = points(-1);
  return `(;SZ[${SIZE}]${black.length > 0 ? `AB${black.join('')}` : ''}${white.length > 0 ? `AW${white.join('')}` : ''}PL[${board.toMove === 1 ? 'B' : 'W'}])`;
};

/** A node's comment read back: its games, black's and white's shares, its years. */
function readComment(comment: string): { games: number; black: number | null; white: number | null; years: string | null } {
  const games = /^([\d,]+) games?/.exec(comment);
  expect(games).not.toBeNull();
  const share = (who: string) => {
    const found = new RegExp(`${who} won (\\d+)%`).exec(comment);
    return found === null ? null : Number(found[1]);
  };
  return { games: Number(games![1].replaceAll(',', '')), black: share('black'), white: share('white'), years: /(\d{4}(?:–\d{4})?)$/.exec(comment)?.[1] ?? null };
}

describe('positions: the explorer as an opening tree', () => {
  let archive: TestArchive;
  const games: Game[] = [];
  const ids: number[] = [];

  beforeAll(async () => {
    archive = await startArchive();
    const random = seeded(46);
    // Points two apart: no two stones ever touch, so nothing is captured.
    const free = Array.from({ length: 64 }, (_, i) => [2 + 2 * (i % 8), 2 + 2 * Math.floor(i / 8)] as [number, number]);
    const choices = Array.from({ length: 12 }, () => [0, 1, 2].map(() => free[Math.floor(random() * free.length)]));
    for (let g = 0; g < 60; g++) {
      const taken = new Set<string>();
      const moves: [number, number][] = [];
      for (let ply = 0; ply < 12; ply++) {
        const r = random();
        let pick = choices[ply][r < 0.6 ? 0 : r < 0.85 ? 1 : 2];
        if (taken.has(pick.join())) pick = free.find((p) => !taken.has(p.join()))!;
        taken.add(pick.join());
        moves.push(pick);
      }
      // A game in four is written turned.
      const turn = g % 4 === 3 ? TURNS[1 + (g % 7)] : TURNS[0];
      const turned = moves.map(([x, y]) => turn(x, y));
      const result = g % 5 === 4 ? 'unknown' : random() < 0.55 ? 'black' : 'white';
      const year = 1990 + Math.floor(random() * 30);
      const re = result === 'black' ? 'RE[B+R]' : result === 'white' ? 'RE[W+2.5]' : '';
      const sgf = `(;GM[1]FF[4]SZ[${SIZE}]PB[Black ${g}]PW[White ${g}]DT[${year}-05-0${1 + (g % 9)}]${re}${turned.map(([x, y], i) => `;${i % 2 === 0 ? 'B' : 'W'}[${point(x, y)}]`).join('')})`;
      const answer = await post(archive, `/games?filename=tree-${g}.sgf`, sgf);
      expect(answer.status).toBe(201);
      ids.push(((await answer.json()) as { id: number }).id);
      let board = empty();
      const canon = [canonOf(board)];
      for (const move of turned) {
        board = play(board, move);
        canon.push(canonOf(board));
      }
      games.push({ moves: turned, result, year, canon });
    }
  }, 180_000);
  afterAll(async () => {
    await archive?.close();
  });

  /** The brute force: the games reaching the board (first arrival), by the position after their next move. */
  const continuations = (board: Board) => {
    const wanted = canonOf(board);
    const found = new Map<string, { games: number; black: number; white: number; years: number[] }>();
    for (const game of games) {
      const at = game.canon.indexOf(wanted);
      if (at < 0 || at >= game.moves.length) continue;
      const next = game.canon[at + 1];
      const entry = found.get(next) ?? { games: 0, black: 0, white: 0, years: [] };
      entry.games++;
      if (game.result === 'black') entry.black++;
      if (game.result === 'white') entry.white++;
      entry.years.push(game.year);
      found.set(next, entry);
    }
    return found;
  };

  const explorer = async (board: Board) => {
    const response = await post(archive, '/positions/explorer', JSON.stringify({ family: 'go', sgf: setupOf(board) }), { 'content-type': 'application/json' });
    expect(response.status).toBe(200);
    return ((await response.json()) as { moves: { move: string; games: number }[] }).moves;
  };

  /**
   * Every node below `start` (the queried position, on `board`) checked: its moves are the brute
   * force's continuations played in at least `minGames` games, with their counts, shares and years,
   * and the explorer's at that position; none below `depth`. Answers how many nodes and how many
   * moves the cut-off left out.
   */
  const walk = async (start: SgfNode, board: Board, depth: number, minGames: number) => {
    let nodes = 0;
    let cut = 0;
    let deepest = 0;
    const visit = async (node: SgfNode, at: Board, level: number) => {
      deepest = Math.max(deepest, level);
      const want = continuations(at);
      if (level === depth) {
        expect(node.children).toEqual([]);
        return;
      }
      const got = new Map<string, number>();
      const moves: { move: string; games: number }[] = [];
      for (const child of node.children) {
        const colour = at.toMove === 1 ? 'B' : 'W';
        expect(Object.keys(child.data)).toContain(colour);
        const move = child.data[colour][0];
        const after = play(at, parsePoint(move));
        const brute = want.get(canonOf(after));
        expect(brute).toBeDefined();
        const comment = readComment(child.data.C[0]);
        expect(comment.games).toBe(brute!.games);
        expect(comment.black ?? 0).toBe(Math.round((100 * brute!.black) / brute!.games));
        expect(comment.white ?? 0).toBe(Math.round((100 * brute!.white) / brute!.games));
        const [first, last] = [Math.min(...brute!.years), Math.max(...brute!.years)];
        expect(comment.years).toBe(first === last ? `${first}` : `${first}–${last}`);
        got.set(canonOf(after), comment.games);
        moves.push({ move, games: comment.games });
        nodes++;
        await visit(child, after, level + 1);
      }
      const kept = [...want].filter(([, entry]) => entry.games >= minGames);
      cut += want.size - kept.length;
      expect(got).toEqual(new Map(kept.map(([canon, entry]) => [canon, entry.games])));
      // The explorer at the same position, written out, in the same orientation.
      const explored = (await explorer(at)).filter((move) => move.games >= minGames);
      const byMove = (a: { move: string; games: number }, b: { move: string; games: number }) => a.move.localeCompare(b.move);
      expect([...moves].sort(byMove)).toEqual([...explored].sort(byMove).map(({ move, games: n }) => ({ move, games: n })));
      // Most played first.
      expect(moves.map((move) => move.games)).toEqual(moves.map((move) => move.games).sort((a, b) => b - a));
    };
    await visit(start, board, 0);
    return { nodes, cut, deepest };
  };

  const treeOf = async (response: Response) => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-go-sgf/);
    const trees = sabaki.parse(await response.text());
    expect(trees).toHaveLength(1);
    return trees[0];
  };

  it('from the empty board: every node agrees with the brute force and the explorer, to the depth, above minGames', async () => {
    const root = await treeOf(await fetch(`${archive.baseUrl}/positions/tree?game=${ids[0]}&ply=0&depth=6&minGames=3`));
    expect(root.data.GM).toEqual(['1']);
    expect(root.data.SZ).toEqual([`${SIZE}`]);
    expect(root.data.CA).toEqual(['UTF-8']);
    expect(root.data.AB).toBeUndefined();
    expect(root.data.C[0]).toMatch(/6 plies deep, moves played in at least 3 games/);
    expect(root.data.C[0]).toMatch(/60 games/);
    const { nodes, cut, deepest } = await walk(root, empty(), 6, 3);
    expect(nodes).toBeGreaterThan(10);
    // The cut-offs did something: moves of fewer games left out, and the tree as deep as asked.
    expect(cut).toBeGreaterThan(0);
    expect(deepest).toBe(6);
  }, 120_000);

  it('Dots: an SGF GM[40] tree on a 39×32 field, checked against the explorer at every node', async () => {
    const random = seeded(40);
    const free = Array.from({ length: 60 }, (_, i) => [3 + 3 * (i % 10), 3 + 4 * Math.floor(i / 10)] as [number, number]);
    const choices = Array.from({ length: 6 }, () => [0, 1].map(() => free[Math.floor(random() * free.length)]));
    const lines: [number, number][][] = [];
    for (let g = 0; g < 12; g++) {
      const taken = new Set<string>();
      const moves: [number, number][] = [];
      for (let ply = 0; ply < 6; ply++) {
        let pick = choices[ply][random() < 0.7 ? 0 : 1];
        if (taken.has(pick.join())) pick = free.find((p) => !taken.has(p.join()))!;
        taken.add(pick.join());
        moves.push(pick);
      }
      lines.push(moves);
      const sgf = `(;GM[40]FF[4]CA[UTF-8]SZ[39:32]PB[Blue ${g}]PW[Red ${g}]${moves.map(([x, y], i) => `;${i % 2 === 0 ? 'B' : 'W'}[${point(x, y)}]`).join('')})`;
      const stored = await post(archive, `/games?filename=dots-${g}.sgf`, sgf);
      expect([stored.status, stored.status === 201 ? '' : await stored.text()]).toEqual([201, '']);
    }
    const response = await post(archive, '/positions/tree', JSON.stringify({ family: 'dots', sgf: '(;SZ[39:32])', depth: 4, minGames: 1, player: 'Blue' }), { 'content-type': 'application/json' });
    expect(response.status).toBe(200);
    const written = await response.text();
    const root = sabaki.parse(written)[0];
    expect(root.data.GM).toEqual(['40']);
    expect(root.data.SZ).toEqual(['39:32']);
    // Every game made a first move: the root's moves hold them all.
    expect(root.children.reduce((sum, child) => sum + readComment(child.data.C[0]).games, 0)).toBe(12);
    let nodes = 0;
    const visit = async (node: SgfNode, black: string[], white: string[], level: number) => {
      const setup = `(;SZ[39:32]${black.length > 0 ? `AB${black.map((p) => `[${p}]`).join('')}` : ''}${white.length > 0 ? `AW${white.map((p) => `[${p}]`).join('')}` : ''}PL[${level % 2 === 0 ? 'B' : 'W'}])`;
      const answer = await post(archive, '/positions/explorer', JSON.stringify({ family: 'dots', sgf: setup, player: 'Blue' }), { 'content-type': 'application/json' });
      const explored = ((await answer.json()) as { moves: { move: string; games: number }[] }).moves;
      const colour = level % 2 === 0 ? 'B' : 'W';
      const mine = node.children.map((child) => ({ move: child.data[colour][0], games: readComment(child.data.C[0]).games }));
      if (level < 4) expect(mine.sort((a, b) => a.move.localeCompare(b.move))).toEqual(explored.map(({ move, games: n }) => ({ move, games: n })).sort((a, b) => a.move.localeCompare(b.move)));
      else expect(mine).toEqual([]);
      for (const child of node.children) {
        nodes++;
        const move = child.data[colour][0];
        await visit(child, colour === 'B' ? [...black, move] : black, colour === 'W' ? [...white, move] : white, level + 1);
      }
    };
    await visit(root, [], [], 0);
    expect(nodes).toBeGreaterThan(4);
    // The sgf-dots plugin reads it back.
    const stored = await post(archive, '/games?filename=dots-tree.sgf', written);
    expect(stored.status).toBe(201);
    expect(((await stored.json()) as { status: string }).status).toBe('indexed');
  }, 120_000);

  it('with minGames 1 every continuation is there; with depth 2 nothing deeper', async () => {
    const all = await treeOf(await fetch(`${archive.baseUrl}/positions/tree?game=${ids[1]}&ply=0&depth=3&minGames=1`));
    const { cut } = await walk(all, empty(), 3, 1);
    expect(cut).toBe(0);
    const shallow = await treeOf(await fetch(`${archive.baseUrl}/positions/tree?game=${ids[1]}&ply=0&depth=2&minGames=2`));
    expect((await walk(shallow, empty(), 2, 2)).deepest).toBe(2);
  }, 120_000);

  it('from a game after a ply: the game\'s own moves lead to the position, then the tree', async () => {
    const game = games[3];
    const root = await treeOf(await fetch(`${archive.baseUrl}/positions/tree?game=${ids[3]}&ply=3&depth=4&minGames=2`));
    let node = root;
    let board = empty();
    for (let ply = 0; ply < 3; ply++) {
      expect(node.children).toHaveLength(1);
      node = node.children[0];
      const colour = ply % 2 === 0 ? 'B' : 'W';
      expect(node.data[colour]).toEqual([point(...game.moves[ply])]);
      board = play(board, game.moves[ply]);
    }
    expect(node.data.C[0]).toMatch(/games? .*reach this position/);
    await walk(node, board, 4, 2);
  }, 120_000);

  it('from a board written out (POST): its setup at the root, in its own orientation', async () => {
    // The position after two moves of a game, turned: the tree comes back in the turned orientation.
    const game = games[0];
    let board = empty();
    for (const move of game.moves.slice(0, 2)) board = play(board, move);
    const turned: Board = { rows: turnRows(board.rows, 'rotate90'), toMove: board.toMove };
    const response = await post(archive, '/positions/tree', JSON.stringify({ family: 'go', sgf: setupOf(turned), depth: 4, minGames: 2 }), { 'content-type': 'application/json' });
    const root = await treeOf(response);
    expect(root.data.AB).toHaveLength(1);
    expect(root.data.AW).toHaveLength(1);
    expect(root.data.PL).toEqual(['B']);
    // The root says what was asked: the SGF written, its brackets escaped in the comment and read back whole.
    expect(root.data.C[0]).toContain(`SGF ${setupOf(turned)}`);
    expect((await walk(root, turned, 4, 2)).nodes).toBeGreaterThan(0);
    // A filter narrows the games: one player's game alone.
    const narrowed = await post(archive, '/positions/tree', JSON.stringify({ family: 'go', sgf: setupOf(empty()), depth: 3, minGames: 1, player: 'Black 0' }), {
      'content-type': 'application/json',
    });
    const one = await treeOf(narrowed);
    const line: string[] = [];
    for (let node = one; node.children.length > 0; node = node.children[0]) {
      expect(node.children).toHaveLength(1);
      expect(readComment(node.children[0].data.C[0]).games).toBe(1);
      line.push(node.children[0].data[line.length % 2 === 0 ? 'B' : 'W'][0]);
    }
    // From the empty board, the moves are the game's up to the symmetries of each position on the way.
    expect(line).toHaveLength(3);
    let replayed = empty();
    for (const move of line) replayed = play(replayed, parsePoint(move));
    expect(canonOf(replayed)).toBe(game.canon[3]);
    expect(one.data.C[0]).toMatch(/player=Black 0/);
  }, 120_000);

  it('symmetry=none: each node as the explorer answers it for the board as it stands', async () => {
    const root = await treeOf(await fetch(`${archive.baseUrl}/positions/tree?game=${ids[2]}&ply=0&depth=3&minGames=2&symmetry=none`));
    expect(root.data.C[0]).toMatch(/symmetry: none/);
    let checked = 0;
    const visit = async (node: SgfNode, at: Board, level: number) => {
      const colour = at.toMove === 1 ? 'B' : 'W';
      const mine = node.children.map((child) => ({ move: child.data[colour][0], games: readComment(child.data.C[0]).games }));
      const answer = await post(archive, '/positions/explorer', JSON.stringify({ family: 'go', sgf: setupOf(at), symmetry: 'none' }), { 'content-type': 'application/json' });
      const explored = ((await answer.json()) as { moves: { move: string; games: number }[] }).moves.filter((move) => move.games >= 2);
      const byMove = (a: { move: string }, b: { move: string }) => a.move.localeCompare(b.move);
      if (level < 3) expect(mine.sort(byMove)).toEqual(explored.map(({ move, games: n }) => ({ move, games: n })).sort(byMove));
      else expect(mine).toEqual([]);
      checked++;
      for (const child of node.children) await visit(child, play(at, parsePoint(child.data[colour][0])), level + 1);
    };
    await visit(root, empty(), 0);
    expect(checked).toBeGreaterThan(5);
  }, 120_000);

  it('draughts: a PDN game with variations and comments, read back by hand', async () => {
    const pdn = [
      ['1-0', '1. c3-d4 f6-g5 2. b2-c3 g7-f6'],
      ['0-1', '1. c3-d4 f6-g5 2. b2-c3 g7-f6'],
      ['1/2-1/2', '1. c3-d4 f6-g5 2. g3-f4 g7-f6'],
      ['1-0', '1. c3-b4 f6-e5 2. g3-h4'],
    ];
    let first = 0;
    for (const [i, [result, moves]] of pdn.entries()) {
      const file = `[Event "Tree ${i}"]\n[Date "200${i}.01.01"]\n[GameType "25"]\n[Result "${result}"]\n\n${moves} ${result}\n`;
      const answer = await post(archive, `/games?filename=tree-${i}.pdn`, file);
      expect(answer.status).toBe(201);
      if (i === 0) first = ((await answer.json()) as { id: number }).id;
    }
    const response = await fetch(`${archive.baseUrl}/positions/tree?game=${first}&ply=0&depth=4&minGames=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-pdn/);
    const written = await response.text();
    expect(written).not.toMatch(/\[FEN /);
    // The archive's PDN reader takes it back (its main line replays).
    const stored = await post(archive, '/games?filename=tree-back.pdn', written);
    expect(stored.status).toBe(201);
    expect(((await stored.json()) as { status: string }).status).toBe('indexed');
    const tree = readPdnTree(written);
    // The brute force: these games share no position by two move orders, so the tree is their prefixes.
    const want = new Map<string, number>();
    for (const [, moves] of pdn) {
      const line = moves.split(' ').filter((word) => !/^\d+\.$/.test(word));
      for (let n = 1; n <= Math.min(4, line.length); n++) want.set(line.slice(0, n).join(' '), (want.get(line.slice(0, n).join(' ')) ?? 0) + 1);
    }
    const got = new Map<string, number>();
    const visit = (node: PdnNode, path: string[]) => {
      for (const child of node.children) {
        const line = [...path, child.move];
        got.set(line.join(' '), Number(/^(\d+) games?/.exec(child.comment)![1]));
        visit(child, line);
      }
    };
    visit(tree, []);
    expect(got).toEqual(want);
    // The most played first move is the main line; the draw is said in words.
    expect(tree.children.map((child) => child.move)).toEqual(['c3-d4', 'c3-b4']);
    expect(tree.children[0].comment).toMatch(/^3 games · .*drawn 33%/);
  }, 120_000);

  it('refuses a depth past 30, minGames below 1, a tree past its cap, and a game that starts from a setup', async () => {
    const problem = async (response: Response, status: number, code: string) => {
      expect(response.status).toBe(status);
      const body = (await response.json()) as { code: string; detail: string };
      expect(body.code).toBe(code);
      return body.detail;
    };
    expect(await problem(await fetch(`${archive.baseUrl}/positions/tree?game=${ids[0]}&ply=0&depth=31`), 400, 'request.invalid')).toMatch(/depth/);
    expect(await problem(await fetch(`${archive.baseUrl}/positions/tree?game=${ids[0]}&ply=0&minGames=0`), 400, 'request.invalid')).toMatch(/minGames/);
    expect(
      await problem(await post(archive, '/positions/tree', JSON.stringify({ family: 'go', sgf: setupOf(empty()), depth: 31 }), { 'content-type': 'application/json' }), 400, 'request.invalid'),
    ).toMatch(/depth/);
    const cap = TREE_LIMITS.maxNodes;
    TREE_LIMITS.maxNodes = 5;
    try {
      expect(await problem(await fetch(`${archive.baseUrl}/positions/tree?game=${ids[0]}&ply=0&depth=5&minGames=1`), 422, 'tree.too_large')).toMatch(/minGames/);
    } finally {
      TREE_LIMITS.maxNodes = cap;
    }
    const handicap = await post(archive, '/games?filename=handicap.sgf', `(;GM[1]FF[4]SZ[${SIZE}]HA[2]AB[pd][dp];W[dd];B[pp])`);
    expect(handicap.status).toBe(201);
    const id = ((await handicap.json()) as { id: number }).id;
    expect(await problem(await fetch(`${archive.baseUrl}/positions/tree?game=${id}&ply=1`), 422, 'tree.unknown_start')).toMatch(/POST \/positions\/tree/);
  }, 120_000);
  // Last: the game it stores would count in the other trees.
  it('the tree is a file the archive reads back (its main line replays)', async () => {
    const response = await fetch(`${archive.baseUrl}/positions/tree?game=${ids[0]}&ply=0&depth=4&minGames=2`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="?tree\.sgf"?$/);
    const stored = await post(archive, '/games?filename=tree-back.sgf', await response.text());
    expect(stored.status).toBe(201);
    const game = (await stored.json()) as { status: string; plies?: number };
    expect(game.status).toBe('indexed');
  });
});

interface PdnNode {
  move: string;
  comment: string;
  children: PdnNode[];
  parent: PdnNode | null;
}

/** A PDN game's moves as a tree: a variation `( … )` is another move in the place of the move before it. */
function readPdnTree(pdn: string): PdnNode {
  const body = pdn.replace(/^\[.*\]$/gm, '');
  const root: PdnNode = { move: '', comment: '', children: [], parent: null };
  let current = root;
  const stack: PdnNode[] = [];
  for (const token of body.match(/\{[^}]*\}|\(|\)|\d+\.(?:\.\.)?|\*|[a-h][1-8](?:[-:][a-h][1-8])+/g) ?? []) {
    if (token.startsWith('{')) current.comment = token.slice(1, -1);
    else if (token === '(') {
      stack.push(current);
      current = current.parent!;
    } else if (token === ')') current = stack.pop()!;
    else if (/^[a-h]/.test(token)) {
      const node: PdnNode = { move: token, comment: '', children: [], parent: current };
      current.children.push(node);
      current = node;
    }
  }
  expect(stack).toHaveLength(0);
  return root;
}
