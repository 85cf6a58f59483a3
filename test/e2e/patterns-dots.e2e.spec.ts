import { readdirSync, readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { parseDotsSgf } from '../support/dots/dots-sgf.js';
import { rebuild } from '../support/positions/dots-replay.js';
import type { ReplayPly, Replayed } from '../support/positions/dots-replay.js';
import { turnRows } from '../support/positions/grids.js';
import { inPatternFrame, isThere, onBoard, region } from '../support/positions/patterns.js';
import type { Anchor, Where } from '../support/positions/patterns.js';
import { bruteFirst } from '../support/positions/pattern-span.js';
import type { Colour, SpanGame } from '../support/positions/pattern-span.js';

/*
 * Pattern search on the real Dots SGF games, against a brute force written here: each game's fields
 * rebuilt ply by ply from the archive's replay (test/support/positions/dots-replay.ts), written as
 * rows — `X` a live dot of the first player, `O` of the second, `.` an empty point no one encloses,
 * `-` a captured dot or an enclosed point, which only `*` matches — turned by hand through the
 * field's symmetries (8 on a square, 4 on a rectangle) and searched for the pattern as written.
 */
const FOLDER = new URL('../fixtures/realdata/dots/', import.meta.url);

interface Item {
  readonly id: number;
  readonly ply: number;
  readonly where: Where;
}
interface Page {
  readonly items: Item[];
  readonly next: string | null;
  readonly total: number;
  readonly continuations: { x: number; y: number; color: 'X' | 'O'; games: number }[];
}

/** owner · 5 + captor → a cell. */
const cellOf = (state: number) => (state % 5 !== 0 ? '-' : state === 0 ? '.' : state === 5 ? 'X' : state === 10 ? 'O' : '-');

describe('patterns: Dots games against a brute-force search', () => {
  let archive: TestArchive;
  const games = new Map<number, Replayed>();
  const boards = new Map<number, string[][][]>();
  const flats = new Map<number, string[]>();

  beforeAll(async () => {
    archive = await startArchive();
    const files = (readdirSync(FOLDER, { recursive: true }) as string[]).filter((name) => name.endsWith('.sgf')).sort();
    for (const name of files) {
      const bytes = readFileSync(new URL(name, FOLDER));
      const response = await post(archive, `/games?filename=${encodeURIComponent(name)}`, bytes);
      if (response.status === 422) continue; // a file the archive does not read
      expect([200, 201]).toContain(response.status);
      const game = (await response.json()) as { id: number; status: string; facts: { boardWidth: number | null; boardHeight: number | null } };
      if (game.status !== 'indexed' || !game.facts.boardWidth || !game.facts.boardHeight) continue;
      const plies = ((await (await fetch(`${archive.baseUrl}/games/${game.id}/replay`)).json()) as { plies: ReplayPly[] }).plies;
      const replayed = rebuild(game.facts.boardWidth, game.facts.boardHeight, parseDotsSgf(bytes.toString('utf8')).setup, plies);
      games.set(game.id, replayed);
      const rows = replayed.positions.map((field) => field.rows.map((row) => row.map(cellOf)));
      boards.set(game.id, rows);
      flats.set(game.id, rows.map((board) => board.map((row) => row.join('')).join('')));
    }
  }, 240_000);
  afterAll(async () => {
    await archive?.close();
  });

  const search = (body: object) =>
    fetch(`${archive.baseUrl}/patterns/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  const allPages = async (body: object): Promise<{ items: Item[]; total: number; continuations: Page['continuations'] }> => {
    const items: Item[] = [];
    const first = (await (await search({ ...body, limit: 10 })).json()) as Page;
    for (let page = first; ; ) {
      items.push(...page.items);
      if (page.next === null) break;
      const response = await search({ cursor: page.next, limit: 10 });
      expect(response.status).toBe(200);
      page = (await response.json()) as Page;
    }
    return { items, total: first.total, continuations: first.continuations };
  };

  const check = async (pattern: string[], anchor: Anchor, colors: 'same' | 'any'): Promise<Item[]> => {
    const want = new Map(
      [...flats.entries()]
        .map(([id, plies]) => [id, plies.findIndex((cells) => onBoard(cells, games.get(id)!.width, games.get(id)!.height, pattern, anchor, colors === 'any'))] as [number, number])
        .filter(([, ply]) => ply >= 0)
        .sort((a, b) => b[0] - a[0]),
    );
    // The brute force held the event loop, which the archive shares: let its idle connections close before asking again.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const found = await allPages({ family: 'dots', pattern, anchor, colors });
    expect(found.total).toBe(want.size);
    expect(found.items.map((item) => [item.id, item.ply])).toEqual([...want.entries()]);
    const moves = new Map<string, number>();
    for (const item of found.items) {
      const plies = boards.get(item.id)!;
      expect(isThere(plies[item.ply], pattern, item.where)).toBe(true);
      const game = games.get(item.id)!;
      for (let k = item.ply; k < game.moves.length; k++) {
        const move = game.moves[k];
        if (move === null) continue;
        const cell = inPatternFrame(pattern, item.where, move[0], move[1]);
        if (cell === null) continue;
        // The dot just placed: a live dot of its player (a dot is never captured as it is placed).
        const dot = plies[k + 1][move[1]][move[0]];
        const color = (dot === 'X') !== item.where.colorsSwapped ? 'X' : 'O';
        moves.set(`${cell[0]},${cell[1]},${color}`, (moves.get(`${cell[0]},${cell[1]},${color}`) ?? 0) + 1);
        break;
      }
    }
    expect(new Map(found.continuations.map((c) => [`${c.x},${c.y},${c.color}`, c.games]))).toEqual(moves);
    return found.items;
  };

  const stones = (pattern: string[]) => pattern.join('').replace(/[^XO]/g, '').length;

  it('corner, edge and free patterns taken from the fields, on square and rectangular fields', async () => {
    const ids = [...games.keys()].sort((a, b) => a - b);
    const rectangle = ids.find((id) => games.get(id)!.width !== games.get(id)!.height && games.get(id)!.positions.length > 60)!;
    const square = ids.find((id) => games.get(id)!.width === games.get(id)!.height && games.get(id)!.positions.length > 60)!;
    expect(rectangle).toBeDefined();
    expect(square).toBeDefined();
    for (const id of [rectangle, square]) {
      const game = games.get(id)!;
      const last = boards.get(id)![game.positions.length - 1];
      // The densest 5×5 square of the last field, its corners wildcards: a free pattern.
      let best: string[] = [];
      for (let top = 0; top + 5 <= game.height; top += 2) {
        for (let left = 0; left + 5 <= game.width; left += 2) {
          const cut = region(last, left, top, 5, 5);
          if (stones(cut) > stones(best)) best = cut;
        }
      }
      const free = best.map((row, y) => (y === 0 || y === 4 ? `*${row.slice(1, 4)}*` : row));
      expect(stones(free)).toBeGreaterThan(3);
      const items = await check(free, 'anywhere', 'same');
      expect(items.map((item) => item.id)).toContain(id);
      await check(free, 'anywhere', 'any');
      // Corner and edge patterns of the field turned a half turn (a symmetry of every field).
      const turned = turnRows(boards.get(id)![Math.min(40, game.positions.length - 1)], 'rotate180');
      await check(region(turned, 0, 0, 4, 3).some((row) => /[XO]/.test(row)) ? region(turned, 0, 0, 4, 3) : ['X'], 'corner', 'same');
      const edge = region(turned, 3, 0, 5, 2);
      await check(stones(edge) > 0 ? edge : ['.X.'], 'edge', 'same');
    }
  });

  it('a captured dot or an enclosed point matches only *', async () => {
    // A field with an enclosure: the square around an enclosed point, as it is (the enclosure a wildcard) and as if the point were a dot.
    let found: { pattern: string[] } | null = null;
    for (const [id, plies] of boards) {
      const at = plies.findIndex((rows) => rows.some((row) => row.includes('-')));
      if (at < 0) continue;
      const rows = plies[at];
      const y = rows.findIndex((row) => row.includes('-'));
      const x = rows[y].indexOf('-');
      const [left, top] = [Math.max(0, Math.min(x - 1, games.get(id)!.width - 3)), Math.max(0, Math.min(y - 1, games.get(id)!.height - 3))];
      const pattern = region(rows, left, top, 3, 3);
      if (stones(pattern) === 0) continue;
      found = { pattern };
      break;
    }
    expect(found).not.toBeNull();
    const { pattern } = found!;
    const items = await check(pattern, 'anywhere', 'same');
    expect(items.length).toBeGreaterThan(0);
    // The wildcards where the enclosure is, written as dots or as empty points instead: checked against the brute force likewise.
    for (const cell of ['X', 'O', '.']) await check(pattern.map((row) => row.replaceAll('*', cell)), 'anywhere', 'same');
  });

  it('within a span of plies, with the side to move and numbered moves (test/support/positions/pattern-span.ts)', async () => {
    // Each game as that brute force reads it: the colour of a ply's dot is its player's (X the first).
    const spanGames = new Map<number, SpanGame>(
      [...games.entries()].map(([id, game]) => [id, { boards: boards.get(id)!, moves: game.moves.map((point, k) => ({ colour: (game.positions[k].toMove === 0 ? 'X' : 'O') as Colour, point })) }]),
    );
    interface Asked {
      readonly pattern: string[];
      readonly colors: 'same' | 'any';
      readonly plyFrom?: number;
      readonly plyTo?: number;
      readonly toMove?: 'black' | 'white';
      readonly sequence?: string[];
      readonly strict?: boolean;
    }
    const checkSpan = async (asked: Asked): Promise<Item[]> => {
      const sought = {
        pattern: asked.pattern,
        sequence: asked.sequence ?? null,
        anchor: 'anywhere' as const,
        anyColors: asked.colors === 'any',
        from: asked.plyFrom ?? 0,
        to: asked.plyTo ?? Infinity,
        toMove: asked.toMove === undefined ? null : asked.toMove === 'black' ? ('X' as const) : ('O' as const),
        strict: asked.strict === true,
      };
      const want = new Map([...spanGames.entries()].map(([id, game]) => [id, bruteFirst(game, sought)] as const).filter(([, ply]) => ply >= 0).sort((a, b) => b[0] - a[0]));
      // The brute force held the event loop, which the archive shares: let its idle connections close before asking again.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const found = await allPages({ family: 'dots', anchor: 'anywhere', ...asked });
      expect(found.total).toBe(want.size);
      expect(found.items.map((item) => [item.id, item.ply])).toEqual([...want.entries()]);
      return found.items;
    };
    expect((await checkSpan({ pattern: ['X.', '.X'], colors: 'same', plyFrom: 20, plyTo: 40, toMove: 'white' })).length).toBeGreaterThan(0);
    expect((await checkSpan({ pattern: ['XO', 'OX'], colors: 'any', plyTo: 50, toMove: 'black' })).length).toBeGreaterThan(0);
    await checkSpan({ pattern: ['.X.', 'XOX'], colors: 'same', plyFrom: 30, plyTo: 45 });
    // Numbered dots: in a game of 60 plies or more, the first two dots in a row after ply 20 within two points of each other, and the box around them at the ply before.
    const id = [...games.keys()].sort((a, b) => a - b).find((key) => games.get(key)!.moves.length > 60)!;
    const game = spanGames.get(id)!;
    const p0 = [...Array(30).keys()].map((k) => 20 + k).find((p) => {
      const [a, b] = [game.moves[p].point, game.moves[p + 1].point];
      return a !== null && b !== null && Math.abs(a[0] - b[0]) <= 2 && Math.abs(a[1] - b[1]) <= 2;
    })!;
    expect(p0).toBeDefined();
    const [a, b] = [game.moves[p0].point!, game.moves[p0 + 1].point!];
    const [width, height] = [games.get(id)!.width, games.get(id)!.height];
    const left = Math.max(0, Math.min(Math.min(a[0], b[0]) - 1, width - 4));
    const top = Math.max(0, Math.min(Math.min(a[1], b[1]) - 1, height - 4));
    const rows = region(boards.get(id)![p0], left, top, 4, 4).map((row) => [...row]);
    const digits = rows.map((row) => row.map(() => '.'));
    for (const [k, point] of [a, b].entries()) {
      rows[point[1] - top][point[0] - left] = game.moves[p0 + k].colour;
      digits[point[1] - top][point[0] - left] = String(k + 1);
    }
    const pattern = rows.map((row) => row.join(''));
    const sequence = digits.map((row) => row.join(''));
    const strict = await checkSpan({ pattern, sequence, colors: 'same', strict: true, plyFrom: p0 - 5, plyTo: p0 + 5 });
    expect(strict.find((item) => item.id === id)?.ply).toBe(p0);
    await checkSpan({ pattern, sequence, colors: 'any', plyTo: p0 + 20 });
  });
});
