import { readdirSync, readFileSync } from 'node:fs';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { sabakiRoot } from '../support/go/sabaki-sgf.js';
import { replay } from '../support/positions/go-replay.js';
import type { Replayed } from '../support/positions/go-replay.js';
import { turnRows } from '../support/positions/grids.js';
import { firstPly, inPatternFrame, isThere, onBoard, region } from '../support/positions/patterns.js';
import type { Anchor, Where } from '../support/positions/patterns.js';

/*
 * Pattern search on the GNU Go games (a third of them, to keep the suite quick) and games written
 * here, against a brute force written in the tests: every game replayed by @sabaki/go-board, every
 * board after every ply turned by hand through the eight symmetries and the pattern as written
 * looked for at the anchor's offsets. The archive must list exactly the games the brute force finds,
 * each at the first ply it finds, and a placement where the pattern really is; the continuations
 * must be the first moves in or next to that placement after it, counted per game.
 */
const FOLDER = new URL('../fixtures/realdata/go/gnugo_regression_games/', import.meta.url);

interface Item {
  readonly id: number;
  readonly ply: number;
  readonly where: Where;
}
interface Continuation {
  readonly x: number;
  readonly y: number;
  readonly color: 'X' | 'O';
  readonly games: number;
  readonly results: Record<string, number>;
}
interface Page {
  readonly items: Item[];
  readonly next: string | null;
  readonly total: number;
  readonly continuations: Continuation[];
}

const boardRows = (signs: number[][]) => signs.map((row) => row.map((sign) => (sign === 1 ? 'X' : sign === -1 ? 'O' : '.')));

describe('patterns: Go games against a brute-force search', () => {
  let archive: TestArchive;
  /** Each game's boards, ply by ply, as rows of X, O and `.`. */
  const boards = new Map<number, string[][][]>();
  /** The same boards as row-major strings. */
  const flats = new Map<number, string[]>();
  const games = new Map<number, Replayed>();
  /** How each game ended as its file's RE says (the winner's colour, `draw`, or `unknown`), read here from the bytes. */
  const endings = new Map<number, string>();
  let captureGame = 0;

  const upload = async (bytes: Buffer | string, filename: string): Promise<number> => {
    const response = await post(archive, `/games?filename=${encodeURIComponent(filename)}`, bytes);
    expect([200, 201]).toContain(response.status);
    return ((await response.json()) as { id: number }).id;
  };
  const add = async (bytes: Buffer, name: string) => {
    const game = replay(sabakiRoot(bytes));
    const id = await upload(bytes, name);
    const result = /RE\[([^\]]*)\]/.exec(bytes.toString('latin1'))?.[1].trim() ?? '';
    // `B+…` and `W+…`, and one file's words: "White resigns." (black won); "has adjourned." says no result.
    endings.set(id, /^(B\+|white resigns)/i.test(result) ? 'black' : /^(W\+|black resigns)/i.test(result) ? 'white' : /^(0|draw|jigo)$/i.test(result) ? 'draw' : 'unknown');
    if (game) {
      games.set(id, game);
      boards.set(id, game.positions.map((position) => boardRows(position.rows)));
      flats.set(id, boards.get(id)!.map((rows) => rows.map((row) => row.join('')).join('')));
    }
    return id;
  };

  beforeAll(async () => {
    archive = await startArchive();
    const files = (readdirSync(FOLDER, { recursive: true }) as string[]).filter((name) => name.endsWith('.sgf')).sort();
    for (const [i, name] of files.entries()) if (i % 3 === 0) await add(readFileSync(new URL(name, FOLDER)), name);
    // A white stone put in the corner and taken at once: the corner shape is on the board after ply 2 only.
    captureGame = await add(Buffer.from('(;GM[1]SZ[9];B[ba];W[aa];B[ab];W[ee];B[aa])'), 'capture.sgf');
  }, 180_000);
  afterAll(async () => {
    await archive?.close();
  });

  const search = async (body: object): Promise<Response> =>
    fetch(`${archive.baseUrl}/patterns/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  /** Every page of a search, `limit` games a page, followed through `next`. */
  const allPages = async (body: object): Promise<{ items: Item[]; total: number; continuations: Continuation[] }> => {
    const items: Item[] = [];
    let page: Page;
    let request: object = { ...body, limit: 25 };
    const first = (await (await search(request)).json()) as Page;
    page = first;
    for (;;) {
      items.push(...page.items);
      expect(page.total).toBe(first.total);
      if (page.next === null) break;
      request = { cursor: page.next, limit: 25 };
      const response = await search(request);
      expect(response.status).toBe(200);
      page = (await response.json()) as Page;
    }
    return { items, total: first.total, continuations: first.continuations };
  };

  /** The brute force's games (id → first ply), newest first. */
  const expected = (pattern: string[], anchor: Anchor, anyColors: boolean): Map<number, number> => {
    const found: [number, number][] = [];
    for (const [id, plies] of flats) {
      const size = games.get(id)!.size;
      const ply = plies.findIndex((cells) => onBoard(cells, size, size, pattern, anchor, anyColors));
      if (ply >= 0) found.push([id, ply]);
    }
    return new Map(found.sort((a, b) => b[0] - a[0]));
  };

  /** Searches, and compares the answer with the brute force's: games, plies, placements, continuations. */
  const check = async (pattern: string[], anchor: Anchor, colors: 'same' | 'any'): Promise<Item[]> => {
    const want = expected(pattern, anchor, colors === 'any');
    // The brute force held the event loop, which the archive shares: let its idle connections close before asking again.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const found = await allPages({ family: 'go', pattern, anchor, colors });
    expect(found.total).toBe(want.size);
    expect(found.items.map((item) => [item.id, item.ply])).toEqual([...want.entries()]);
    const moves = new Map<string, number>();
    const results = new Map<string, Record<string, number>>();
    for (const item of found.items) {
      const plies = boards.get(item.id)!;
      expect(isThere(plies[item.ply], pattern, item.where)).toBe(true);
      if (colors === 'same') expect(item.where.colorsSwapped).toBe(false);
      // The continuation: the first move after the arrival in the placement or next to it.
      const game = games.get(item.id)!;
      for (let k = item.ply; k < game.moves.length; k++) {
        const move = game.moves[k];
        if (move === null) continue;
        const cell = inPatternFrame(pattern, item.where, move[0], move[1]);
        if (cell === null) continue;
        const stone = plies[k + 1][move[1]][move[0]];
        const color = (stone === 'X') !== item.where.colorsSwapped ? 'X' : 'O';
        const key = `${cell[0]},${cell[1]},${color}`;
        moves.set(key, (moves.get(key) ?? 0) + 1);
        const ended = results.get(key) ?? {};
        ended[endings.get(item.id)!] = (ended[endings.get(item.id)!] ?? 0) + 1;
        results.set(key, ended);
        break;
      }
    }
    expect(new Map(found.continuations.map((c) => [`${c.x},${c.y},${c.color}`, c.games]))).toEqual(moves);
    expect(new Map(found.continuations.map((c) => [`${c.x},${c.y},${c.color}`, c.results]))).toEqual(results);
    const counts = found.continuations.map((c) => c.games);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    return found.items;
  };

  /** A 19×19 game of at least `plies` plies (the n-th), and its board at a ply. */
  const nineteen = (n: number, plies: number): number => [...games.entries()].filter(([, game]) => game.size === 19 && game.positions.length > plies).map(([id]) => id)[n];
  const stones = (pattern: string[]) => pattern.join('').replace(/[^XO]/g, '').length;

  it('a corner pattern (7×6) taken from a board turned by hand, found in every corner and orientation', async () => {
    // The first game whose board after ply 45, turned a quarter, has five stones or more in its top-left 7×6 corner.
    const [id, pattern] = [0, 1, 2, 3, 4, 5, 6, 7, 8]
      .map((n) => nineteen(n, 60))
      .map((game) => [game, region(turnRows(boards.get(game)![45], 'rotate90'), 0, 0, 7, 6)] as const)
      .find(([, rows]) => stones(rows) >= 5)!;
    const items = await check(pattern, 'corner', 'same');
    expect(items.map((item) => item.id)).toContain(id);
    // The pattern lies in the game's own board only turned (it was cut from the board turned a quarter).
    expect(items.find((item) => item.id === id)!.where.transform).not.toBe('identity');
    // Patterns one point wide: on the corner point itself, and along the edge from it.
    await check(['O'], 'corner', 'any');
    await check(['X', '.', '.'], 'corner', 'same');
  });

  it('an edge pattern with wildcards', async () => {
    const id = nineteen(1, 80);
    const turned = turnRows(boards.get(id)![70], 'mirrorY');
    const pattern = region(turned, 5, 0, 6, 3).map((row, y) => (y === 2 ? `*${row.slice(1, 5)}*` : row));
    expect(stones(pattern)).toBeGreaterThan(0);
    await check(pattern, 'edge', 'same');
  });

  it('free patterns (4×4 with wildcards, 3×3), with the colours as given and with either colours', async () => {
    const id = nineteen(2, 100);
    const board = boards.get(id)![90];
    // The 4×4 square around the 90th move's point, wildcards on its corners.
    const free = region(board, 7, 7, 4, 4).map((row, y) => (y === 0 || y === 3 ? `*${row.slice(1, 3)}*` : row));
    const pattern = stones(free) > 0 ? free : ['X.O', '.X.', 'O.*'];
    await check(pattern, 'anywhere', 'same');
    await check(pattern, 'anywhere', 'any');
    // A common shape: the tiger's mouth, in either colours.
    await check(['X.X', '*X*'], 'anywhere', 'any');
    await check(['.O.', 'OXO', '*.*'], 'anywhere', 'same');
  });

  it('leaves out a game deleted, and confirms a game whose row was written before rows held its result from the table', async () => {
    const pattern = ['X.X', '*X*'];
    const before = await check(pattern, 'anywhere', 'any');
    expect(before.length).toBeGreaterThan(3);
    const [gone, old] = [before[1].id, before[2].id];
    expect((await fetch(`${archive.baseUrl}/games/${gone}`, { method: 'DELETE' })).status).toBe(204);
    for (const map of [games, boards, flats, endings]) map.delete(gone);
    // The row as the rows written before held it (no result, no day), written anew: the filter reads it again.
    const db = archive.app.get<DataSource>(getDataSourceToken());
    await db.query(`UPDATE game_patterns SET facts = false, result = NULL, played = NULL, written = pg_current_xact_id() WHERE game_id = $1`, [old]);
    const after = await check(pattern, 'anywhere', 'any');
    expect(after.map((item) => item.id)).toEqual(before.map((item) => item.id).filter((id) => id !== gone));
  });

  it('a capture takes the pattern off the board again: the first ply is still reported', async () => {
    const pattern = ['OX', '*.'];
    const items = await check(pattern, 'corner', 'same');
    expect(items.find((item) => item.id === captureGame)?.ply).toBe(2);
    // After ply 3 the white stone is gone, and with it the pattern.
    expect(firstPly(boards.get(captureGame)!.slice(3), pattern, 'corner', false)).toBe(-1);
  });

  it('answers bad patterns with problem+json and a stable code', async () => {
    const code = async (body: object, status = 400) => {
      const response = await search(body);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      return ((await response.json()) as { code: string }).code;
    };
    expect(await code({ family: 'go', pattern: ['XO', 'X'] })).toBe('pattern.invalid');
    expect(await code({ family: 'go', pattern: ['XB', '..'] })).toBe('pattern.invalid');
    expect(await code({ family: 'go', pattern: [''] })).toBe('pattern.invalid');
    expect(await code({ family: 'go', pattern: ['..', '.*'] })).toBe('pattern.no_stones');
    expect(await code({ family: 'go', pattern: Array.from({ length: 26 }, () => 'X') })).toBe('pattern.too_large');
    expect(await code({ family: 'go', pattern: ['XXXXXXXXXX'], boardSize: '9' })).toBe('pattern.too_large');
    expect(await code({ family: 'peg-solitaire', pattern: ['X'] })).toBe('pattern.family');
    // Draughts has patterns of its own kind: 8 rows of 8.
    expect(await code({ family: 'checkers', pattern: ['X'] })).toBe('pattern.invalid');
    expect(await code({ family: 'go', pattern: ['X'], anchor: 'middle' })).toBe('request.invalid');
    expect(await code({ family: 'go' })).toBe('request.invalid');
    expect(await code({ cursor: 'bm90IGEgY3Vyc29y' })).toBe('request.bad_cursor');
  });
});
