import { readdirSync, readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { allPositionPages, expectFirstArrivals, firstArrivals } from '../support/positions/search.js';
import { parseDotsSgf } from '../support/dots/dots-sgf.js';
import { namesFor, turnRows, turnedPoint } from '../support/positions/grids.js';
import { rebuild } from '../support/positions/dots-replay.js';
import { turnedDotsSgf } from '../support/positions/turned-sgf.js';
import type { Field, ReplayPly, Replayed } from '../support/positions/dots-replay.js';
import type { TransformName } from '../../src/rules/symmetry.js';

/*
 * Search by position on the real Dots files (the SGF games the archive reads), checked against a
 * brute-force search written here. Each game's fields are rebuilt ply by ply from the archive's
 * replay (GET /games/{id}/replay: the dot of each ply, and for each surround the dots it captured
 * and the points it enclosed), the enclosure written here as the rules state it — the 4-connected
 * area of points that are not the surrounder's live dots, all of it the surrounder's from then on —
 * and compared with the queried field under each symmetry of the field (8 square, 4 for a
 * rectangle) by turning the rows by hand. Plies after the first dot the replay calls illegal are
 * no position (the index stops there).
 */

const FOLDER = new URL('../fixtures/realdata/dots/', import.meta.url);

/** SGF letters: a–z 0–25, A–Z 26–51. */
const letterValue = (c: string): number => (c >= 'a' && c <= 'z' ? c.charCodeAt(0) - 97 : c.charCodeAt(0) - 65 + 26);
const pointOf = (value: string): [number, number] => [letterValue(value[0]), letterValue(value[1])];

const text = (field: Field) => `${field.toMove}|${field.rows.map((row) => row.join(',')).join('/')}`;


describe('positions: the Dots SGF games against a brute-force search', () => {
  let archive: TestArchive;
  const games = new Map<number, Replayed>();
  const texts = new Map<number, string[]>();
  let originalId = 0;
  let turnedId = 0;
  let turnedName: TransformName = 'rotate90';
  let vkId = 0;
  let twinId = 0;
  let prefixId = 0;
  let refusedByEngine = 0;

  const upload = async (bytes: Buffer | string, filename: string): Promise<number> => {
    const response = await post(archive, `/games?filename=${encodeURIComponent(filename)}`, bytes);
    expect([200, 201]).toContain(response.status);
    return ((await response.json()) as { id: number }).id;
  };

  const replayOf = async (id: number): Promise<ReplayPly[]> => {
    const response = await fetch(`${archive.baseUrl}/games/${id}/replay`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { plies: ReplayPly[] }).plies;
  };

  const record = (id: number, game: Replayed) => {
    games.set(id, game);
    texts.set(id, game.positions.map(text));
  };

  beforeAll(async () => {
    archive = await startArchive();
    const files = (readdirSync(FOLDER, { recursive: true }) as string[]).filter((name) => name.endsWith('.sgf')).sort();
    let source = '';
    for (const name of files) {
      const bytes = readFileSync(new URL(name, FOLDER));
      const response = await post(archive, `/games?filename=${encodeURIComponent(name)}`, bytes);
      if (response.status === 422) continue; // a file the archive does not read (kropla's malformed move value)
      expect([200, 201]).toContain(response.status);
      const game = (await response.json()) as { id: number; status: string; facts: { boardWidth: number | null; boardHeight: number | null } };
      if (game.status !== 'indexed' || !game.facts.boardWidth || !game.facts.boardHeight) continue;
      const sgf = parseDotsSgf(bytes.toString('utf8'));
      const plies = await replayOf(game.id);
      if (plies.some((p) => p.details?.illegal !== undefined)) refusedByEngine++;
      const replayed = rebuild(game.facts.boardWidth, game.facts.boardHeight, sgf.setup, plies);
      record(game.id, replayed);
      if (originalId === 0 && replayed.width === replayed.height && replayed.moves.length > 80 && sgf.setup.length === 0) {
        originalId = game.id;
        source = bytes.toString('utf8');
      }
    }
    // The same game turned by hand.
    const original = games.get(originalId)!;
    turnedName = 'rotate90';
    const turned = turnedDotsSgf(source, original.width, original.height, turnedName);
    expect(turned).not.toBe(source);
    turnedId = await upload(turned, 'turned.sgf');
    record(turnedId, rebuild(original.width, original.height, parseDotsSgf(turned).setup, await replayOf(turnedId)));
    // A VK save starting from a cross (its first four dots, plies 1–4 of its replay) and an SGF of the
    // same game with the cross as setup: VK ply n + 4 is the SGF's ply n, on the 35x35 field VK games are replayed on.
    vkId = await upload(['1.0', '101 Anna', '202 Boris', '-b+', 'hhhiiiihggjjgjjg', ''].join('\n'), 'cross.txt');
    const vkPlies = await replayOf(vkId);
    expect(vkPlies.map((p) => p.details?.cell)).toEqual([[16, 16], [16, 17], [17, 17], [17, 16], [15, 15], [18, 18], [15, 18], [18, 15]]);
    record(vkId, rebuild(35, 35, [], vkPlies));
    const twin = '(;GM[40]FF[4]SZ[35]AB[qq][rr]AW[rq][qr];B[pp];W[ss];B[sp];W[ps])';
    twinId = await upload(twin, 'cross.sgf');
    record(twinId, rebuild(35, 35, parseDotsSgf(twin).setup, await replayOf(twinId)));
    // Its first two plies alone: after its last ply Black is to move, as in the longer games there.
    const prefix = '(;GM[40]FF[4]SZ[35]AB[qq][rr]AW[rq][qr];B[pp];W[ss])';
    prefixId = await upload(prefix, 'prefix.sgf');
    record(prefixId, rebuild(35, 35, parseDotsSgf(prefix).setup, await replayOf(prefixId)));
  }, 240_000);
  afterAll(async () => {
    await archive?.close();
  });

  const allPages = (first: string) => allPositionPages(archive.baseUrl, first, 7);

  const expected = (id: number, ply: number, exact: boolean) => {
    const game = games.get(id)!;
    const position = game.positions[ply];
    const names = exact ? (['identity'] as TransformName[]) : namesFor(game.width, game.height);
    const wanted = new Set(names.map((name) => text({ rows: turnRows(position.rows, name), toMove: position.toMove })));
    return firstArrivals(texts, wanted);
  };

  const samples = (): [number, number][] => {
    const ids = [...games.keys()].sort((a, b) => a - b);
    const picks: [number, number][] = [];
    const rectangle = ids.find((id) => games.get(id)!.width !== games.get(id)!.height)!;
    const withSetup = ids.find((id) => id !== twinId && games.get(id)!.positions[0].rows.flat().some((point) => point !== 0))!;
    picks.push([ids[0], 0], [rectangle, 0], [rectangle, 25], [withSetup, 0], [withSetup, 3], [turnedId, 60], [originalId, 0], [vkId, 4], [vkId, 6], [twinId, 4], [prefixId, 2]);
    for (let i = 0; i < ids.length; i += 5) {
      const game = games.get(ids[i])!;
      picks.push([ids[i], Math.min(game.positions.length - 1, 1 + ((i * 7) % 30))], [ids[i], game.positions.length - 1]);
    }
    return picks;
  };

  it('indexes every position up to the first dot the rules refuse, numbered as the replay numbers plies', async () => {
    let positions = 0;
    for (const [id, game] of games) {
      const last = game.positions.length - 1;
      const past = await fetch(`${archive.baseUrl}/positions/games?game=${id}&ply=${last + 1}`);
      expect(past.status).toBe(422);
      const here = await allPages(`/positions/games?game=${id}&ply=${last}&limit=50`);
      expect(here.items.find((item) => item.id === id)?.ply).toBe(expected(id, last, false).get(id));
      positions += game.positions.length;
    }
    // The real games: about 16,000 positions; some games meet a dot the engine refuses (other rules).
    expect(games.size).toBeGreaterThan(60);
    expect(positions).toBeGreaterThan(15_000);
    expect(refusedByEngine).toBeGreaterThan(0);
  });

  it('finds exactly the games the brute force finds, each at its first ply, with a transform turning the field into the game\'s', async () => {
    let compared = 0;
    for (const [id, ply] of samples()) {
      const want = expected(id, ply, false);
      const found = await allPages(`/positions/games?game=${id}&ply=${ply}&limit=7`);
      expectFirstArrivals(found, want);
      const { items } = found;
      const query = games.get(id)!.positions[ply];
      for (const item of items) {
        const there = games.get(item.id)!.positions[item.ply];
        expect(text({ rows: turnRows(query.rows, item.transform), toMove: query.toMove })).toBe(text(there));
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('finds the turned copy with the transform back, and the VK cross start four plies after the SGF setup', async () => {
    const mid = 60;
    const copies = await allPages(`/positions/games?game=${turnedId}&ply=${mid}`);
    // The copy was turned a quarter clockwise: the original is the copy turned back.
    expect(copies.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: originalId, ply: mid, transform: 'rotate270' })]));
    const back = await allPages(`/positions/games?game=${originalId}&ply=${mid}`);
    expect(back.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: turnedId, ply: mid, transform: 'rotate90' })]));
    for (const ply of [4, 5, 8]) {
      const fromVk = await allPages(`/positions/games?game=${vkId}&ply=${ply}`);
      expect(fromVk.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: twinId, ply: ply - 4 })]));
    }
    const end = await allPages(`/positions/games?game=${prefixId}&ply=2`);
    expect(new Map(end.items.map((item) => [item.id, item.ply]))).toEqual(new Map([[prefixId, 2], [twinId, 2], [vkId, 6]]));
    const start = await allPages(`/positions/games?game=${vkId}&ply=0`);
    expect(start.items.map((item) => [item.id, item.ply])).toEqual([[vkId, 0]]);
  });

  it('with symmetry=none, only the games whose field is the queried one as it stands', async () => {
    for (const [id, ply] of samples().slice(0, 14)) {
      const want = expected(id, ply, true);
      const { items, total } = await allPages(`/positions/games?game=${id}&ply=${ply}&symmetry=none&limit=7`);
      expect(total).toBe(want.size);
      expect(new Map(items.map((item) => [item.id, item.ply]))).toEqual(want);
      const query = games.get(id)!.positions[ply];
      for (const item of items) expect(text({ rows: turnRows(query.rows, item.transform), toMove: query.toMove })).toBe(text(query));
    }
    const exact = await allPages(`/positions/games?game=${turnedId}&ply=60&symmetry=none`);
    expect(exact.items.map((item) => item.id)).not.toContain(originalId);
  });

  it('the explorer counts each game once, by its move after the first arrival, in the queried orientation', async () => {
    for (const [id, ply] of samples()) {
      const game = games.get(id)!;
      const query = game.positions[ply];
      const { width, height } = game;
      const names = namesFor(width, height);
      const own = names.filter((name) => text({ rows: turnRows(query.rows, name), toMove: query.toMove }) === text(query));
      const orbit = (point: [number, number] | null) => (point === null ? 'pass' : own.map((name) => turnedPoint(point[0], point[1], width, height, name).join(',')).sort()[0]);
      const want = new Map<string, number>();
      const found = expected(id, ply, false);
      for (const [other, at] of found) {
        const replayed = games.get(other)!;
        if (at >= replayed.moves.length) continue;
        const there = replayed.positions[at];
        const name = names.find((n) => text({ rows: turnRows(query.rows, n), toMove: query.toMove }) === text(there))!;
        const move = replayed.moves[at];
        // The move in the game's field, brought back to the queried field by the transform that undoes `name`.
        const undo = names.find((n) => turnRows(turnRows(marker(width, height), name), n).flat().join() === marker(width, height).flat().join())!;
        const back = move === null ? null : turnedPoint(move[0], move[1], width, height, undo);
        const key = orbit(back);
        want.set(key, (want.get(key) ?? 0) + 1);
      }
      const response = await fetch(`${archive.baseUrl}/positions/explorer?game=${id}&ply=${ply}`);
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { games: number; moves: { move: string; notation: string; games: number }[] };
      expect(answer.games).toBe(found.size);
      const got = new Map<string, number>();
      for (const move of answer.moves) {
        const key = move.move === '' ? 'pass' : orbit(pointOf(move.move));
        got.set(key, (got.get(key) ?? 0) + move.games);
      }
      expect(got).toEqual(want);
    }
  });
});

/** A grid whose every point differs, to tell a transform from another on a symmetric field. */
function marker(width: number, height: number): number[][] {
  return Array.from({ length: height }, (_, r) => Array.from({ length: width }, (_, c) => r * width + c));
}
