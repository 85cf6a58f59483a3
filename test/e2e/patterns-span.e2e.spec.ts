import { readdirSync, readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { sabakiRoot } from '../support/go/sabaki-sgf.js';
import { replay } from '../support/positions/go-replay.js';
import { turnRows } from '../support/positions/grids.js';
import { isThere, region } from '../support/positions/patterns.js';
import type { Where } from '../support/positions/patterns.js';
import { bruteFirst, follows, other } from '../support/positions/pattern-span.js';
import type { Colour, SpanGame, SpanSought } from '../support/positions/pattern-span.js';

/*
 * Pattern search within a span of plies (`plyFrom`, `plyTo`), with the side to move (`toMove`) and
 * numbered moves (`sequence`, `strict`), on a quarter of the GNU Go games and games written here,
 * against the brute force of test/support/positions/pattern-span.ts: every game replayed by
 * @sabaki/go-board, the side to move and the moves' colours read from the SGF, every board of the
 * span turned by hand. The archive must list exactly the games the brute force finds, each at the
 * first ply it finds, through every page, at a placement where the pattern (its numbered cells
 * empty) really is and after which its numbered moves really are played.
 */
const FOLDER = new URL('../fixtures/realdata/go/gnugo_regression_games/', import.meta.url);

interface Item {
  readonly id: number;
  readonly ply: number;
  readonly where: Where;
}
interface Page {
  readonly items: Item[];
  readonly next: string | null;
  readonly total: number;
}

/** What a search asks, as the body says it. */
interface Asked {
  readonly pattern: string[];
  readonly anchor: 'anywhere' | 'corner' | 'edge';
  readonly colors: 'same' | 'any';
  readonly plyFrom?: number;
  readonly plyTo?: number;
  readonly toMove?: 'black' | 'white';
  readonly sequence?: string[];
  readonly strict?: boolean;
}

describe('patterns within a span of plies, with the side to move and numbered moves: Go games against a brute force', () => {
  let archive: TestArchive;
  const games = new Map<number, SpanGame & { readonly size: number }>();
  let handicapGame = 0;
  let tenukiGame = 0;

  const add = async (bytes: Buffer, name: string): Promise<number> => {
    const response = await post(archive, `/games?filename=${encodeURIComponent(name)}`, bytes);
    expect([200, 201]).toContain(response.status);
    const id = ((await response.json()) as { id: number }).id;
    const game = replay(sabakiRoot(bytes));
    if (game) {
      games.set(id, {
        size: game.size,
        boards: game.positions.map((position) => position.rows.map((row) => row.map((sign) => (sign === 1 ? 'X' : sign === -1 ? 'O' : '.')))),
        // The colour of each move: the side to move at the position it is played from.
        moves: game.moves.map((point, k) => ({ colour: game.positions[k].toMove === 1 ? 'X' : 'O', point })),
      });
    }
    return id;
  };

  beforeAll(async () => {
    archive = await startArchive();
    const files = (readdirSync(FOLDER, { recursive: true }) as string[]).filter((name) => name.endsWith('.sgf')).sort();
    for (const [i, name] of files.entries()) if (i % 4 === 1) await add(readFileSync(new URL(name, FOLDER)), name);
    // Two handicap stones, white first, a pass by each.
    handicapGame = await add(Buffer.from('(;GM[1]SZ[9]HA[2]AB[cc][gg];W[cg];B[gc];W[];B[ee];W[ec];B[];W[ce])'), 'handicap.sgf');
    // Black plays c3 (cg) and c4 (cf) in the lower-left corner with a move elsewhere between.
    tenukiGame = await add(Buffer.from('(;GM[1]SZ[9];B[ee];W[cc];B[cg];W[gc];B[cf];W[gg])'), 'tenuki.sgf');
  }, 180_000);
  afterAll(async () => {
    await archive?.close();
  });

  const search = async (body: object): Promise<Response> =>
    fetch(`${archive.baseUrl}/patterns/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  /** Every page of a search, followed through `next` (each cursor alone). */
  const allPages = async (body: object): Promise<{ items: Item[]; total: number }> => {
    const items: Item[] = [];
    const first = await search({ ...body, limit: 7 });
    expect(first.status).toBe(200);
    let page = (await first.json()) as Page;
    const total = page.total;
    for (;;) {
      items.push(...page.items);
      expect(page.total).toBe(total);
      if (page.next === null) break;
      const response = await search({ cursor: page.next, limit: 7 });
      expect(response.status).toBe(200);
      page = (await response.json()) as Page;
    }
    return { items, total };
  };

  const soughtOf = (asked: Asked): SpanSought => ({
    pattern: asked.pattern,
    sequence: asked.sequence ?? null,
    anchor: asked.anchor,
    anyColors: asked.colors === 'any',
    from: asked.plyFrom ?? 0,
    to: asked.plyTo ?? Infinity,
    toMove: asked.toMove === undefined ? null : asked.toMove === 'black' ? 'X' : 'O',
    strict: asked.strict === true,
  });

  /** Searches, and compares the answer with the brute force's; the games found. */
  const check = async (asked: Asked): Promise<Item[]> => {
    const sought = soughtOf(asked);
    const want = new Map([...games.entries()].map(([id, game]) => [id, bruteFirst(game, sought)] as const).filter(([, ply]) => ply >= 0).sort((a, b) => b[0] - a[0]));
    // The brute force held the event loop, which the archive shares: let its idle connections close before asking again.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const found = await allPages({ family: 'go', ...asked });
    expect(found.total).toBe(want.size);
    expect(found.items.map((item) => [item.id, item.ply])).toEqual([...want.entries()]);
    for (const item of found.items) {
      const game = games.get(item.id)!;
      // The pattern with its numbered cells empty lies where the answer says.
      const before = asked.pattern.map((row, y) => [...row].map((c, x) => (asked.sequence?.[y][x] ?? '.') !== '.' ? '.' : c).join(''));
      expect(isThere(game.boards[item.ply] as string[][], before, item.where)).toBe(true);
      if (asked.colors === 'same') expect(item.where.colorsSwapped).toBe(false);
      if (asked.sequence) {
        // The numbered moves where the sequence turned by hand puts them, played after that ply.
        const digits = turnRows(asked.sequence.map((row) => [...row]), item.where.transform);
        const colours = turnRows(asked.pattern.map((row) => [...row]), item.where.transform);
        const numbered: { digit: number; x: number; y: number; colour: Colour }[] = [];
        digits.forEach((row, y) =>
          row.forEach((digit, x) => {
            if (digit === '.') return;
            const colour = colours[y][x] as Colour;
            numbered.push({ digit: Number(digit), x: item.where.left + x, y: item.where.top + y, colour: item.where.colorsSwapped ? other(colour) : colour });
          }),
        );
        expect(follows(game, item.ply, numbered.sort((a, b) => a.digit - b.digit), asked.strict === true)).toBe(true);
      }
    }
    return found.items;
  };

  /** A 19×19 game of more than `plies` plies (the n-th). */
  const nineteen = (n: number, plies: number): number => [...games.entries()].filter(([, game]) => game.size === 19 && game.moves.length > plies).map(([id]) => id)[n];
  const stones = (pattern: string[]) => pattern.join('').replace(/[^XO]/g, '').length;

  it('a corner pattern within spans of plies: before, around and after the ply it was cut at', async () => {
    const [id, pattern] = [0, 1, 2, 3, 4, 5]
      .map((n) => nineteen(n, 60))
      .map((game) => [game, region(turnRows(games.get(game)!.boards[45] as string[][], 'rotate90'), 0, 0, 7, 6)] as const)
      .find(([, rows]) => stones(rows) >= 4)!;
    const items = await check({ pattern, anchor: 'corner', colors: 'same', plyFrom: 30, plyTo: 60 });
    expect(items.map((item) => item.id)).toContain(id);
    await check({ pattern, anchor: 'corner', colors: 'same', plyTo: 44 });
    await check({ pattern, anchor: 'corner', colors: 'any', plyFrom: 46 });
    await check({ pattern: ['X', '.', '.'], anchor: 'corner', colors: 'same', plyFrom: 10, plyTo: 10 });
  }, 240_000);

  it('who is to move, with the colours as given and exchanged', async () => {
    await check({ pattern: ['.O.', 'OXO'], anchor: 'anywhere', colors: 'same', toMove: 'black', plyTo: 120 });
    await check({ pattern: ['.O.', 'OXO'], anchor: 'anywhere', colors: 'any', toMove: 'white', plyTo: 120 });
    await check({ pattern: ['...', '.X.'], anchor: 'edge', colors: 'any', toMove: 'black', plyFrom: 5, plyTo: 80 });
    // The handicap game (white first; plies 3 and 6 passes): its 3-3 point's stone is in the corner from the start.
    // After ply 1 black is to move, after ply 2 white (ply 3 is white's pass), after 3 black, after 5 black (ply 6 is
    // black's pass), after 7, the last, black (white played last).
    const corner = ['...', '...', '..X'];
    const at = async (toMove: 'black' | 'white', plyFrom: number, plyTo?: number) =>
      (await check({ pattern: corner, anchor: 'corner', colors: 'same', toMove, plyFrom, plyTo })).find((item) => item.id === handicapGame)?.ply;
    expect(await at('white', 0)).toBe(0);
    expect(await at('black', 0)).toBe(1);
    expect(await at('white', 1)).toBe(2);
    expect(await at('black', 2)).toBe(3);
    expect(await at('black', 5, 5)).toBe(5);
    expect(await at('white', 5, 5)).toBeUndefined();
    expect(await at('black', 7)).toBe(7);
  }, 240_000);

  it('numbered moves, with other moves between them and strictly one after another', async () => {
    // The tenuki game: black's c3 (ply 3) then c4 (ply 5) with white's g7 between them, in the lower-left corner
    // (the pattern as written in the top-left corner: c3 its third row, c4 its fourth), empty at the start.
    const pattern = ['....', '....', '..X.', '..X.'];
    const sequence = ['....', '....', '..1.', '..2.'];
    const loose = await check({ pattern, sequence, anchor: 'corner', colors: 'same' });
    expect(loose.find((item) => item.id === tenukiGame)?.ply).toBe(0);
    expect(loose.find((item) => item.id === tenukiGame)?.where.transform).toBe('mirrorY');
    const strict = await check({ pattern, sequence, anchor: 'corner', colors: 'same', strict: true });
    expect(strict.map((item) => item.id)).not.toContain(tenukiGame);
    // Cut from real games: two moves in a row near each other, numbered in the box around them.
    let cut = 0;
    for (const n of [0, 1, 2, 3, 4, 5, 6, 7]) {
      const id = nineteen(n, 90);
      if (id === undefined) break;
      const game = games.get(id)!;
      const p0 = [...Array(40).keys()].map((k) => 40 + k).find((p) => {
        const [a, b] = [game.moves[p].point, game.moves[p + 1].point];
        return a !== null && b !== null && Math.abs(a[0] - b[0]) <= 2 && Math.abs(a[1] - b[1]) <= 2;
      });
      if (p0 === undefined) continue;
      const [a, b] = [game.moves[p0].point!, game.moves[p0 + 1].point!];
      const left = Math.max(0, Math.min(a[0], b[0]) - 1);
      const top = Math.max(0, Math.min(a[1], b[1]) - 1);
      const width = Math.min(4, 19 - left);
      const height = Math.min(4, 19 - top);
      const rows = region(game.boards[p0] as string[][], left, top, width, height).map((row) => [...row]);
      const digits = rows.map((row) => row.map(() => '.'));
      for (const [k, point] of [a, b].entries()) {
        rows[point[1] - top][point[0] - left] = game.moves[p0 + k].colour;
        digits[point[1] - top][point[0] - left] = String(k + 1);
      }
      const asked = { pattern: rows.map((row) => row.join('')), sequence: digits.map((row) => row.join('')), anchor: 'anywhere' as const, plyFrom: p0 - 10, plyTo: p0 + 10 };
      const items = await check({ ...asked, colors: 'any', strict: true });
      expect(items.find((item) => item.id === id)?.ply).toBeLessThanOrEqual(p0);
      await check({ ...asked, colors: 'same', toMove: game.moves[p0].colour === 'X' ? 'black' : 'white' });
      if (++cut === 3) break;
    }
    expect(cut).toBeGreaterThan(0);
  }, 240_000);

  it('answers bad spans and sequences with problem+json and a stable code', async () => {
    const code = async (body: object) => {
      const response = await search({ family: 'go', ...body });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      const problem = (await response.json()) as { code: string; detail: string };
      return [problem.code, problem.detail] as const;
    };
    const pattern = ['.X*', 'OX.'];
    const invalid = async (sequence: unknown, where: RegExp) => {
      const [c, detail] = await code({ pattern, sequence });
      expect(c).toBe('pattern.invalid');
      expect(detail).toMatch(where);
    };
    await invalid(['.1.', '.1.'], /row 2, column 2.*again/);
    await invalid(['.1.', '.3.'], /no move 2/);
    await invalid(['.2.', '...'], /no move 1/);
    await invalid(['..1', '...'], /row 1, column 3.*\* cell/);
    await invalid(['1..', '...'], /row 1, column 1.*\. cell/);
    await invalid(['.1.', '..a'], /row 2, column 3.*"a"/);
    await invalid(['.1.', '.0.'], /row 2, column 2.*"0"/);
    await invalid(['.1.'], /1 rows and the pattern 2/);
    await invalid(['.1.', '....'], /row 2 of the sequence is 4 cells long/);
    expect((await code({ pattern, plyFrom: 30, plyTo: 20 }))[0]).toBe('request.invalid');
    expect((await code({ pattern, plyFrom: -1 }))[0]).toBe('request.invalid');
    expect((await code({ pattern, plyTo: 2.5 }))[0]).toBe('request.invalid');
    expect((await code({ pattern, plyFrom: '3' }))[0]).toBe('request.invalid');
    expect((await code({ pattern, toMove: 'red' }))[0]).toBe('request.invalid');
    expect((await code({ pattern, strict: true }))[0]).toBe('request.invalid');
    expect((await code({ pattern, sequence: ['.1.', '...'], strict: 'yes' }))[0]).toBe('request.invalid');
    expect((await code({ pattern, sequence: '.1.' }))[0]).toBe('request.invalid');
    // A cursor whose span was changed by hand.
    const first = (await (await search({ family: 'go', pattern: ['X'], anchor: 'corner', plyTo: 300, limit: 1 })).json()) as Page;
    expect(first.next).not.toBeNull();
    const forge = (change: (span: Record<string, unknown>) => void) => {
      const cursor = JSON.parse(Buffer.from(first.next!, 'base64url').toString('utf8')) as { p: { s: Record<string, unknown> } };
      change(cursor.p.s);
      return Buffer.from(JSON.stringify(cursor)).toString('base64url');
    };
    for (const change of [(s: Record<string, unknown>) => (s.plyTo = -4), (s: Record<string, unknown>) => (s.plyFrom = 400), (s: Record<string, unknown>) => (s.sequence = ['2']), (s: Record<string, unknown>) => (s.player = 'x')]) {
      const response = await search({ cursor: forge(change) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('request.bad_cursor');
    }
    // The cursor as written continues its search.
    expect((await search({ cursor: forge(() => undefined) })).status).toBe(200);
  });
});
