import { readdirSync, readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { allPositionPages, firstArrivals } from '../support/positions/search.js';
import { namesFor, turnRows, turnedPoint } from '../support/positions/grids.js';
import type { TransformName } from '../../src/rules/symmetry.js';

/*
 * Search by position on the real peg solitaire boards, checked against a brute-force search written
 * here. Each board is taken from the archive's description of it (GET /games/{id}: the starting
 * layout, a character per cell) and played here through the jumps of its replay (GET
 * /games/{id}/replay: the solution the solver found): the stone leaves its hole, the jumped one is
 * taken off, the stone lands. A position is the board cut to its slots' bounding box (locked margins
 * change nothing) and its move mode. Two positions are one when a symmetry of the box turns one into
 * the other, slots, targets and stones alike: so a board whose layout is another's turned is
 * another board, and its positions are others.
 */

const FOLDER = new URL('../fixtures/realdata/peg/', import.meta.url);

interface Replayed {
  readonly mode: string;
  /** Box-cut rows per position: ' ' locked, '.' empty slot, '+' empty target, r/y/g a stone, R/Y/G one on a target. */
  readonly positions: string[][][];
  /** The jump from each position in box coordinates: [fromX, fromY, toX, toY]. */
  readonly moves: [number, number, number, number][];
  readonly width: number;
  readonly height: number;
}

interface Jump {
  readonly details: { from: { x: number; y: number }; over: { x: number; y: number }; to: { x: number; y: number } };
}

/** The board of the layout rows played through the jumps, cut to the slots' box. */
function play(mode: string, layout: readonly string[], jumps: readonly Jump[]): Replayed {
  const cells = layout.map((row) => row.split(''));
  const slots: [number, number][] = [];
  cells.forEach((row, y) => row.forEach((c, x) => c !== ' ' && slots.push([x, y])));
  const left = Math.min(...slots.map(([x]) => x));
  const right = Math.max(...slots.map(([x]) => x));
  const top = Math.min(...slots.map(([, y]) => y));
  const bottom = Math.max(...slots.map(([, y]) => y));
  const cut = () => cells.slice(top, bottom + 1).map((row) => row.slice(left, right + 1));
  const isTarget = (c: string) => c === '+' || (c !== c.toLowerCase() && c !== ' ');
  const empty = (x: number, y: number) => (cells[y][x] = isTarget(cells[y][x]) ? '+' : '.');
  const positions = [cut()];
  const moves: [number, number, number, number][] = [];
  for (const { details } of jumps) {
    const { from, over, to } = details;
    const stone = cells[from.y][from.x].toLowerCase();
    if (!'ryg'.includes(stone) || !'ryg'.includes(cells[over.y][over.x].toLowerCase()) || !'.+'.includes(cells[to.y][to.x])) throw new Error(`jump ${JSON.stringify(details)} is not one`);
    cells[to.y][to.x] = isTarget(cells[to.y][to.x]) ? stone.toUpperCase() : stone;
    empty(from.x, from.y);
    empty(over.x, over.y);
    moves.push([from.x - left, from.y - top, to.x - left, to.y - top]);
    positions.push(cut());
  }
  return { mode, positions, moves, width: right - left + 1, height: bottom - top + 1 };
}

const text = (mode: string, rows: string[][]) => `${mode}|${rows.map((row) => row.join('')).join('/')}`;

/** A version 2 board file (no row shifts) with its matrix turned by hand. */
function turnedBoard(source: string, name: TransformName): string {
  const lines = source.split(/\r?\n/);
  const rows = lines.slice(2).filter((line) => line.trim() !== '').map((line) => line.trim().split(/\s+/));
  return [...lines.slice(0, 2), ...turnRows(rows, name).map((row) => row.join(' ')), ''].join('\r\n');
}

describe('positions: the peg solitaire boards against a brute-force search', () => {
  let archive: TestArchive;
  const games = new Map<number, Replayed>();
  const texts = new Map<number, string[]>();
  const named = new Map<string, number>();

  const upload = async (bytes: Buffer | string, filename: string): Promise<number> => {
    const response = await post(archive, `/games?filename=${encodeURIComponent(filename)}`, bytes);
    expect([200, 201]).toContain(response.status);
    const id = ((await response.json()) as { id: number }).id;
    const game = (await (await fetch(`${archive.baseUrl}/games/${id}`)).json()) as { details: { mode: string; layout: string[] } };
    const replay = (await (await fetch(`${archive.baseUrl}/games/${id}/replay`)).json()) as { plies: Jump[] };
    const played = play(game.details.mode, game.details.layout, replay.plies);
    games.set(id, played);
    texts.set(id, played.positions.map((rows) => text(played.mode, rows)));
    named.set(filename, id);
    return id;
  };

  beforeAll(async () => {
    archive = await startArchive();
    const files = (readdirSync(FOLDER, { recursive: true }) as string[]).filter((name) => name.endsWith('.brd')).sort();
    for (const name of files) await upload(readFileSync(new URL(name, FOLDER)), name);
    const read = (name: string) => readFileSync(new URL(`v2_head/${name}.brd`, FOLDER), 'latin1');
    // The English cross with its hole moved off the centre, and that board turned: the same board, started turned.
    const english = read('English Standard Board').split('\r\n');
    expect(english[5]).toBe('y y y E y y y');
    english[5] = 'y y y Y y y y';
    english[3] = '* * y e y * *';
    const offCentre = english.join('\r\n');
    await upload(offCentre, 'english-off-centre.brd');
    await upload(turnedBoard(offCentre, 'rotate90'), 'english-off-centre-turned.brd');
    // The heart mirrored (the same layout, the hole on the other side), and the 3-3-2-2 board turned (another layout).
    await upload(turnedBoard(read('Heart'), 'mirrorX'), 'heart-mirrored.brd');
    await upload(turnedBoard(read('Asymmetric 3-3-2-2 Board'), 'rotate90'), 'asymmetric-turned.brd');
  }, 240_000);
  afterAll(async () => {
    await archive?.close();
  });

  const allPages = (first: string) => allPositionPages(archive.baseUrl, first, 3);

  /** The transforms of the box under which the board stays itself (slots and targets; stones aside). */
  const layoutOnly = (rows: string[][]) => rows.map((row) => row.map((c) => (c === ' ' ? ' ' : c === '+' || c !== c.toLowerCase() ? '+' : '.')));
  const symmetriesOf = (game: Replayed) => {
    const layout = layoutOnly(game.positions[0]);
    return namesFor(game.width, game.height).filter((name) => turnRows(layout, name).flat().join() === layout.flat().join() && turnRows(layout, name).length === layout.length);
  };

  const expected = (id: number, ply: number, exact: boolean) => {
    const game = games.get(id)!;
    const names = exact ? (['identity'] as TransformName[]) : symmetriesOf(game);
    const wanted = new Set(names.map((name) => text(game.mode, turnRows(game.positions[ply], name))));
    return firstArrivals(texts, wanted);
  };

  const samples = (): [number, number][] => {
    const picks: [number, number][] = [];
    for (const name of ['english-off-centre.brd', 'english-off-centre-turned.brd', 'heart-mirrored.brd', 'asymmetric-turned.brd']) {
      const id = named.get(name)!;
      picks.push([id, 0], [id, Math.min(1, games.get(id)!.moves.length)], [id, Math.min(5, games.get(id)!.moves.length)]);
    }
    for (const [id, game] of games) picks.push([id, 0], [id, Math.floor(game.moves.length / 2)], [id, game.moves.length]);
    return picks;
  };

  it('indexes every board and every jump of its replay', async () => {
    let positions = 0;
    for (const [id, game] of games) {
      const last = game.positions.length - 1;
      expect((await fetch(`${archive.baseUrl}/positions/games?game=${id}&ply=${last + 1}`)).status).toBe(422);
      expect((await fetch(`${archive.baseUrl}/positions/games?game=${id}&ply=${last}&limit=1`)).status).toBe(200);
      positions += game.positions.length;
    }
    expect(games.size).toBeGreaterThan(30);
    expect(positions).toBeGreaterThan(1_000);
  });

  it('finds exactly the games the brute force finds, each at its first ply, with a transform turning the board into the game\'s', async () => {
    let withTransform = 0;
    for (const [id, ply] of samples()) {
      const want = expected(id, ply, false);
      const { items, total } = await allPages(`/positions/games?game=${id}&ply=${ply}&limit=3`);
      expect(total).toBe(want.size);
      expect(new Map(items.map((item) => [item.id, item.ply]))).toEqual(want);
      expect(items.map((item) => item.id)).toEqual([...want.keys()]);
      const query = games.get(id)!;
      for (const item of items) {
        const there = games.get(item.id)!;
        expect(text(query.mode, turnRows(query.positions[ply], item.transform))).toBe(text(there.mode, there.positions[item.ply]));
        if (item.transform !== 'identity') withTransform++;
      }
    }
    expect(withTransform).toBeGreaterThan(0);
  });

  it('finds a board started turned, and not a turned layout (another board)', async () => {
    const english = named.get('english-off-centre.brd')!;
    const turned = named.get('english-off-centre-turned.brd')!;
    expect((await allPages(`/positions/games?game=${turned}&ply=0`)).items).toEqual(expect.arrayContaining([expect.objectContaining({ id: english, ply: 0, transform: 'rotate270' })]));
    const heart = named.get('v2_head/Heart.brd')!;
    const mirrored = named.get('heart-mirrored.brd')!;
    expect((await allPages(`/positions/games?game=${mirrored}&ply=0`)).items).toEqual(expect.arrayContaining([expect.objectContaining({ id: heart, ply: 0, transform: 'mirrorX' })]));
    const asymmetric = named.get('asymmetric-turned.brd')!;
    expect((await allPages(`/positions/games?game=${asymmetric}&ply=0`)).items.map((item) => item.id)).toEqual([asymmetric]);
  });

  it('with symmetry=none, only the games whose board is the queried one as it stands', async () => {
    for (const [id, ply] of samples().slice(0, 24)) {
      const want = expected(id, ply, true);
      const { items, total } = await allPages(`/positions/games?game=${id}&ply=${ply}&symmetry=none&limit=3`);
      expect(total).toBe(want.size);
      expect(new Map(items.map((item) => [item.id, item.ply]))).toEqual(want);
    }
    const turned = named.get('english-off-centre-turned.brd')!;
    expect((await allPages(`/positions/games?game=${turned}&ply=0&symmetry=none`)).items.map((item) => item.id)).toEqual([turned]);
  });

  it('the explorer counts each game once, by its jump after the first arrival, in the queried board\'s own coordinates', async () => {
    for (const [id, ply] of samples()) {
      const game = games.get(id)!;
      const { width, height } = game;
      const query = game.positions[ply];
      const names = symmetriesOf(game);
      const own = names.filter((name) => text(game.mode, turnRows(query, name)) === text(game.mode, query));
      const jumpText = (j: readonly number[]) => `${j[0]},${j[1]}-${j[2]},${j[3]}`;
      const orbit = (j: readonly number[]) =>
        own
          .map((name) => jumpText([...turnedPoint(j[0], j[1], width, height, name), ...turnedPoint(j[2], j[3], width, height, name)]))
          .sort()[0];
      const marker = Array.from({ length: height }, (_, r) => Array.from({ length: width }, (_, c) => r * width + c));
      const want = new Map<string, number>();
      const found = expected(id, ply, false);
      for (const [other, at] of found) {
        const replayed = games.get(other)!;
        if (at >= replayed.moves.length) continue;
        const name = names.find((n) => text(game.mode, turnRows(query, n)) === text(replayed.mode, replayed.positions[at]))!;
        const undo = names.find((n) => turnRows(turnRows(marker, name), n).flat().join() === marker.flat().join())!;
        const [fx, fy, tx, ty] = replayed.moves[at];
        const key = orbit([...turnedPoint(fx, fy, width, height, undo), ...turnedPoint(tx, ty, width, height, undo)]);
        want.set(key, (want.get(key) ?? 0) + 1);
      }
      const response = await fetch(`${archive.baseUrl}/positions/explorer?game=${id}&ply=${ply}`);
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { games: number; moves: { move: string; games: number }[] };
      expect(answer.games).toBe(found.size);
      const got = new Map<string, number>();
      for (const move of answer.moves) {
        const key = orbit(move.move.split(/[,-]/).map(Number));
        got.set(key, (got.get(key) ?? 0) + move.games);
      }
      expect(got).toEqual(want);
    }
  });
});
