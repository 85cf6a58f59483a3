import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { readdirSync, readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { allPositionPages, expectFirstArrivals, firstArrivals } from '../support/positions/search.js';
import { sabakiRoot } from '../support/go/sabaki-sgf.js';
import { turnRows, turnedPoint } from '../support/positions/grids.js';
import { turnedGoSgf } from '../support/positions/turned-sgf.js';
import { letters, replay } from '../support/positions/go-replay.js';
import type { Position, Replayed } from '../support/positions/go-replay.js';
import type { TransformName } from '../../src/rules/symmetry.js';
import { Indexes } from '../../src/indexes/indexes.js';
import type { PositionsIndex } from '../../src/indexes/positions/positions.index.js';
import { PositionsRepository } from '../../src/positions/positions.repository.js';
import { OpeningPositions1765800000000 } from '../../migrations/1765800000000-OpeningPositions.js';
import { OpeningRowsByWriter1767500000000 } from '../../migrations/1767500000000-OpeningRowsByWriter.js';
import { jest } from '@jest/globals';
import { MERGE_FANOUT, POSTING_BITS, bucketOfPosting, decodeRow, encodeRows, gameOfPosting, postingsInRow, shiftFor, sortedDistinct, wordsOf } from '../../src/indexes/positions/postings.js';
import { laterBuckets } from '../../src/indexes/positions/position-rows.js';

/*
 * Search by position on the GNU Go games, checked against a brute-force search written here: every
 * game replayed by @sabaki/go-board (not the archive's engine), every position after every ply
 * compared with the queried one under each of the board's eight symmetries by turning the rows by
 * hand. The archive's answer must be exactly the games the brute force finds, each with the first
 * ply it finds and a transform that really turns the queried board into the game's.
 */
const FOLDER = new URL('../fixtures/realdata/go/gnugo_regression_games/', import.meta.url);
const NAMES: TransformName[] = ['identity', 'rotate90', 'rotate180', 'rotate270', 'mirrorX', 'mirrorY', 'transpose', 'antiTranspose'];

const text = (position: Position) => `${position.toMove}|${position.rows.map((row) => row.join(',')).join('/')}`;


describe('positions: the GNU Go games against a brute-force search', () => {
  let archive: TestArchive;
  const games = new Map<number, Replayed>();
  let originalId = 0;
  let turnedId = 0;
  const orderIds: number[] = [];
  /** Each game's positions as text, ply by ply. */
  const texts = new Map<number, string[]>();

  const upload = async (bytes: Buffer | string, filename: string): Promise<number> => {
    const response = await post(archive, `/games?filename=${encodeURIComponent(filename)}`, bytes);
    expect([200, 201]).toContain(response.status);
    return ((await response.json()) as { id: number }).id;
  };

  const record = (id: number, game: Replayed) => {
    games.set(id, game);
    texts.set(id, game.positions.map(text));
  };

  beforeAll(async () => {
    archive = await startArchive();
    let source = '';
    const files = (readdirSync(FOLDER, { recursive: true }) as string[]).filter((name) => name.endsWith('.sgf')).sort();
    for (const name of files) {
      const bytes = readFileSync(new URL(name, FOLDER));
      const game = replay(sabakiRoot(bytes));
      const id = await upload(bytes, name);
      if (game) record(id, game);
      if (originalId === 0 && game && game.size === 19 && game.positions.length > 60) {
        originalId = id;
        source = bytes.toString('latin1');
      }
    }
    // A game turned by hand, and two games reaching one position by different move orders.
    const turned = turnedGoSgf(source, 19, 'rotate90');
    turnedId = await upload(turned, 'turned.sgf');
    record(turnedId, replay(sabakiRoot(Buffer.from(turned, 'latin1')))!);
    for (const [name, sgf] of [
      ['order-1.sgf', '(;GM[1]SZ[19];B[pd];W[dd];B[dp];W[pp];B[jj])'],
      ['order-2.sgf', '(;GM[1]SZ[19];B[dp];W[pp];B[pd];W[dd];B[jd])'],
    ]) {
      const id = await upload(sgf, name);
      orderIds.push(id);
      record(id, replay(sabakiRoot(Buffer.from(sgf)))!);
    }
  }, 180_000);
  afterAll(async () => {
    await archive?.close();
  });

  const allPages = (first: string) => allPositionPages(archive.baseUrl, first, 40);

  const expected = (id: number, ply: number, exact: boolean) => {
    const position = games.get(id)!.positions[ply];
    const wanted = new Set((exact ? [position.rows] : NAMES.map((name) => turnRows(position.rows, name))).map((rows) => text({ rows, toMove: position.toMove })));
    return firstArrivals(texts, wanted);
  };

  const samples = (): [number, number][] => {
    const ids = [...games.keys()].sort((a, b) => a - b);
    const picks: [number, number][] = [];
    // Ply 0 of a 19x19 and of a 9x9 game, the transposition, the turned copy, and plies spread over the games.
    picks.push([ids.find((id) => games.get(id)!.size === 19)!, 0]);
    picks.push([ids.find((id) => games.get(id)!.size === 9)!, 0]);
    picks.push([orderIds[1], 4], [turnedId, 30], [orderIds[0], 0]);
    for (let i = 0; i < ids.length; i += 37) {
      const game = games.get(ids[i])!;
      picks.push([ids[i], Math.min(game.positions.length - 1, 1 + ((i * 7) % 40))], [ids[i], game.positions.length - 1]);
    }
    return picks;
  };

  it('finds exactly the games the brute force finds, each at its first ply, with a transform that turns the board into the game\'s', async () => {
    let compared = 0;
    for (const [id, ply] of samples()) {
      const want = expected(id, ply, false);
      const found = await allPages(`/positions/games?game=${id}&ply=${ply}&limit=40`);
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

  it('finds the turned copy and the transposition', async () => {
    const [order1, order2] = orderIds;
    const atFour = await allPages(`/positions/games?game=${order1}&ply=4`);
    // Four stones on the star points by two move orders (other games of the folder open so too).
    expect(atFour.items.map((item) => [item.id, item.ply, item.transform])).toEqual(
      expect.arrayContaining([
        [order2, 4, 'identity'],
        [order1, 4, 'identity'],
      ]),
    );
    const mid = Math.min(40, games.get(originalId)!.positions.length - 1);
    const copies = await allPages(`/positions/games?game=${turnedId}&ply=${mid}`);
    // The copy was turned a quarter clockwise: the original is the copy turned back.
    expect(copies.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: originalId, ply: mid, transform: 'rotate270' })]));
  });

  it('with symmetry=none, only the games whose board is the queried one as it stands', async () => {
    for (const [id, ply] of samples().slice(0, 8)) {
      const want = expected(id, ply, true);
      const { items } = await allPages(`/positions/games?game=${id}&ply=${ply}&symmetry=none&limit=40`);
      expect(new Map(items.map((item) => [item.id, item.ply]))).toEqual(want);
      const query = games.get(id)!.positions[ply];
      for (const item of items) expect(text({ rows: turnRows(query.rows, item.transform), toMove: query.toMove })).toBe(text(query));
    }
  });

  it('the explorer counts each game once, by its move after the first arrival, in the queried orientation', async () => {
    for (const [id, ply] of samples().slice(0, 12)) {
      const query = games.get(id)!.positions[ply];
      const size = query.rows.length;
      // The queried board's own symmetries: a move and its images under them are one move.
      const own = NAMES.filter((name) => text({ rows: turnRows(query.rows, name), toMove: query.toMove }) === text(query));
      const orbit = (point: [number, number] | null) =>
        point === null ? 'pass' : own.map((name) => turnedPoint(point[0], point[1], size, size, name).join(',')).sort()[0];
      const want = new Map<string, number>();
      for (const [game, at] of expected(id, ply, false)) {
        const replayed = games.get(game)!;
        if (at >= replayed.moves.length) continue;
        const there = replayed.positions[at];
        // A transform from the queried board to the game's; the move is brought back by its inverse.
        const name = NAMES.find((n) => text({ rows: turnRows(query.rows, n), toMove: query.toMove }) === text(there))!;
        const move = replayed.moves[at];
        const back = move === null ? null : NAMES.map((n) => [n, turnedPoint(move[0], move[1], size, size, n)] as const).find(([n]) =>
          text({ rows: turnRows(turnRows(query.rows, name), n), toMove: 0 }) === text({ rows: query.rows, toMove: 0 }),
        )![1];
        const key = orbit(back);
        want.set(key, (want.get(key) ?? 0) + 1);
      }
      const response = await fetch(`${archive.baseUrl}/positions/explorer?game=${id}&ply=${ply}`);
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { games: number; moves: { move: string; notation: string; games: number }[] };
      expect(answer.games).toBe(expected(id, ply, false).size);
      const got = new Map<string, number>();
      for (const move of answer.moves) {
        const key = move.move === '' ? 'pass' : orbit(letters(move.move));
        got.set(key, (got.get(key) ?? 0) + move.games);
      }
      expect(got).toEqual(want);
      const counts = answer.moves.map((move) => move.games);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    }
  });

  /** The SGF root node of a position: its stones and the side to move. */
  const sgfOf = (position: Position) => {
    const points = (sign: number) => position.rows.flatMap((row, y) => row.flatMap((cell, x) => (cell === sign ? [`[${String.fromCharCode(97 + x)}${String.fromCharCode(97 + y)}]`] : [])));
    const black = points(1);
    const white = points(-1);
    return `(;SZ[${position.rows.length}]${black.length > 0 ? `AB${black.join('')}` : ''}${white.length > 0 ? `AW${white.join('')}` : ''}PL[${position.toMove === 1 ? 'B' : 'W'}])`;
  };

  it('finds a board written out as SGF setup as it finds the game\'s position, turned or not', async () => {
    for (const [id, ply] of samples().slice(0, 10)) {
      const position = games.get(id)!.positions[ply];
      const want = expected(id, ply, false);
      for (const name of ['identity', 'rotate90', 'mirrorY'] as TransformName[]) {
        const turned = { rows: turnRows(position.rows, name), toMove: position.toMove };
        const answer = await fetch(`${archive.baseUrl}/positions/games`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ family: 'go', sgf: sgfOf(turned), limit: 100 }),
        });
        expect(answer.status).toBe(200);
        const page = (await answer.json()) as { items: { id: number; ply: number; transform: TransformName }[]; total: number };
        expect(page.total).toBe(want.size);
        for (const item of page.items) {
          expect(want.get(item.id)).toBe(item.ply);
          expect(text({ rows: turnRows(turned.rows, item.transform), toMove: turned.toMove })).toBe(texts.get(item.id)![item.ply]);
        }
      }
    }
  });

  it('narrows by the filters of GET /games: a player', async () => {
    const [id, ply] = [orderIds[0], 0];
    const everyone = await allPages(`/positions/games?game=${id}&ply=${ply}&limit=40`);
    const some = everyone.items.slice(0, 30).map((item) => item.id);
    const names = new Map<number, string[]>();
    for (const game of some) names.set(game, ((await (await fetch(`${archive.baseUrl}/games/${game}`)).json()) as { players: { name: string | null }[] }).players.flatMap((p) => (p.name ? [p.name] : [])));
    const name = [...names.values()].flat().find((n) => n.length >= 3);
    expect(name).toBeDefined();
    const part = name!.toLowerCase();
    const playing = new Set<number>();
    for (const game of everyone.items.map((item) => item.id)) {
      const players = ((await (await fetch(`${archive.baseUrl}/games/${game}`)).json()) as { players: { name: string | null }[] }).players;
      if (players.some((p) => p.name !== null && p.name.normalize('NFKC').toLowerCase().includes(part))) playing.add(game);
    }
    const narrowed = await allPages(`/positions/games?game=${id}&ply=${ply}&limit=40&player=${encodeURIComponent(name!)}`);
    expect(new Set(narrowed.items.map((item) => item.id))).toEqual(playing);
    expect(narrowed.total).toBe(playing.size);
    const explorer = async () => ((await (await fetch(`${archive.baseUrl}/positions/explorer?game=${id}&ply=${ply}&player=${encodeURIComponent(name!)}`)).json()) as { games: number; moves: unknown[] });
    const explored = await explorer();
    expect(explored.games).toBe(playing.size);

    // The same answers when the player's games are found first and then those reaching the position
    // (as for an opening a million games reach): every game reaches the start, few are the player's.
    const db = archive.app.get<DataSource>(getDataSourceToken());
    const sent = jest.spyOn(db, 'query');
    const threshold = PositionsRepository.narrowFirstFrom;
    PositionsRepository.narrowFirstFrom = 0;
    try {
      const first = await allPages(`/positions/games?game=${id}&ply=${ply}&limit=40&player=${encodeURIComponent(name!)}`);
      expect(new Set(first.items.map((item) => item.id))).toEqual(playing);
      expect(first.items.map((item) => [item.id, item.ply])).toEqual(narrowed.items.map((item) => [item.id, item.ply]));
      expect(first.total).toBe(playing.size);
      expect(await explorer()).toEqual(explored);
      expect(sent.mock.calls.some(([sql]) => String(sql).includes('narrowed AS MATERIALIZED'))).toBe(true);
    } finally {
      PositionsRepository.narrowFirstFrom = threshold;
      sent.mockRestore();
    }
  });

  it('narrows by a period of play, alone or with other filters: the games GET /games lists for it among those the brute force finds', async () => {
    const [id, ply] = [orderIds[0], 0];
    const period = 'playedFrom=2004-01-01&playedTo=2005-12-31';
    const inPeriod = new Set<number>();
    for (let cursor: string | null = ''; cursor !== null; ) {
      const page = (await (await fetch(`${archive.baseUrl}/games?${period}&limit=100${cursor ? `&cursor=${cursor}` : ''}`)).json()) as { items: { id: number }[]; next: string | null };
      for (const item of page.items) inPeriod.add(item.id);
      cursor = page.next;
    }
    const reaching = expected(id, ply, false);
    const wanted = new Map([...reaching].filter(([game]) => inPeriod.has(game)));
    // Neither empty nor all: the period narrows.
    expect(wanted.size).toBeGreaterThan(0);
    expect(wanted.size).toBeLessThan(reaching.size);
    // The period alone (asked of the positions' rows, nothing joined), with a filter every game here
    // passes (games and analyses joined), and so with the filters' games found first.
    const check = async (filters: string) => {
      const found = await allPages(`/positions/games?game=${id}&ply=${ply}&limit=40&${filters}`);
      expect(new Map(found.items.map((item) => [item.id, item.ply]))).toEqual(wanted);
      expect(found.total).toBe(wanted.size);
      const explored = (await (await fetch(`${archive.baseUrl}/positions/explorer?game=${id}&ply=${ply}&${filters}`)).json()) as { games: number };
      expect(explored.games).toBe(wanted.size);
    };
    await check(period);
    await check(`${period}&family=go`);
    const threshold = PositionsRepository.narrowFirstFrom;
    PositionsRepository.narrowFirstFrom = 0;
    try {
      await check(`${period}&family=go`);
    } finally {
      PositionsRepository.narrowFirstFrom = threshold;
    }
  });

  it('answers bad questions with problem+json and a stable code', async () => {
    const code = async (response: Response, status: number) => {
      expect(response.status).toBe(status);
      return ((await response.json()) as { code: string }).code;
    };
    const [id] = orderIds;
    const last = games.get(id)!.positions.length - 1;
    expect(await code(await fetch(`${archive.baseUrl}/positions/games?game=${id}&ply=${last + 1}`), 422)).toBe('position.ply_out_of_range');
    expect(await code(await fetch(`${archive.baseUrl}/positions/explorer?game=999999999&ply=0`), 404)).toBe('game.not_found');
    expect(await code(await fetch(`${archive.baseUrl}/positions/games?game=${id}`), 400)).toBe('request.invalid');
    const stored = await upload('notes about a game, no format', 'notes.txt');
    expect(await code(await fetch(`${archive.baseUrl}/positions/games?game=${stored}&ply=0`), 409)).toBe('position.not_indexed');
    const ask = (body: object) => fetch(`${archive.baseUrl}/positions/explorer`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    for (const body of [
      { family: 'go', sgf: '(;SZ[19]AB[pd][pd])' },
      { family: 'go', sgf: '(;SZ[19]AB[zz])' },
      { family: 'go', sgf: '(;SZ[19];B[pd])' },
      { family: 'go', sgf: '(;SZ[19]AB[pd]PL[X])' },
      { family: 'go', sgf: '(;SZ[19]AB[pd]' },
      { family: 'go', fen: 'W:W21:B1' },
      { family: 'go', sgf: '(;SZ[19:13]AB[pd])' },
    ]) {
      expect(await code(await ask(body), 400)).toBe('position.invalid');
    }
    expect(await code(await fetch(`${archive.baseUrl}/positions/games?cursor=bm90IGEgY3Vyc29y`), 400)).toBe('request.bad_cursor');
  });

  it('a game stored before the index (no positions) is 409 until re-indexed, then found again', async () => {
    const [id] = orderIds;
    const db = archive.app.get<DataSource>(getDataSourceToken());
    // What an archive written before the position index holds: the game without its positions row.
    await db.query('DELETE FROM game_positions WHERE game_id = $1', [id]);
    const before = await fetch(`${archive.baseUrl}/positions/games?game=${id}&ply=4`);
    expect(before.status).toBe(409);
    expect(((await before.json()) as { code: string }).code).toBe('position.not_indexed');
    expect((await fetch(`${archive.baseUrl}/games/${id}/reindex`, { method: 'POST' })).status).toBe(200);
    const { items, total } = await allPages(`/positions/games?game=${id}&ply=4&limit=40`);
    expect(total).toBe(expected(id, 4, false).size);
    expect(new Map(items.map((item) => [item.id, item.ply]))).toEqual(expected(id, 4, false));
  });

  it('a deleted game leaves the counts, the games and the explorer: the start is reached by one game fewer', async () => {
    const [first, second] = orderIds;
    const db = archive.app.get<DataSource>(getDataSourceToken());
    const explored = async (ply: number) => ((await (await fetch(`${archive.baseUrl}/positions/explorer?game=${first}&ply=${ply}`)).json()) as { games: number; moves: { move: string; games: number }[] });
    const start = await allPages(`/positions/games?game=${first}&ply=0&limit=40`);
    expect(start.total).toBe(expected(first, 0, false).size);
    // At ply 4 the two games reached one position by different move orders; each went on its own way.
    const before = await explored(4);
    expect(before.games).toBe(expected(first, 4, false).size);
    const openingRows = async () => ((await db.query('SELECT count(*)::int AS n FROM opening_positions WHERE game_id = $1', [second])) as { n: number }[])[0].n;
    // Its five moves: plies 0–5, six distinct positions, a row each.
    expect(await openingRows()).toBe(6);
    expect((await fetch(`${archive.baseUrl}/games/${second}`, { method: 'DELETE' })).status).toBe(204);
    games.delete(second);
    texts.delete(second);
    const after = await allPages(`/positions/games?game=${first}&ply=0&limit=40`);
    expect(after.total).toBe(start.total - 1);
    expect(after.items.map((item) => item.id)).not.toContain(second);
    expect(after.total).toBe(expected(first, 0, false).size);
    expect(await openingRows()).toBe(0);
    const later = await explored(4);
    expect(later.games).toBe(before.games - 1);
    expect(later.games).toBe(expected(first, 4, false).size);
    expect(later.moves.reduce((sum, move) => sum + move.games, 0)).toBe(later.games);
    expect((await explored(0)).games).toBe(expected(first, 0, false).size);
  });

  it('migration 1765800000000 writes the opening rows of the games stored before it from their rows, as the writer writes them', async () => {
    const db = archive.app.get<DataSource>(getDataSourceToken());
    await archive.app.get(Indexes).idle();
    const rows = () => db.query('SELECT key::text, game_id::int, played::text, ply, result, turn FROM opening_positions ORDER BY key, game_id');
    const written = (await rows()) as { game_id: number; ply: number }[];
    // Every indexed game has its start there, at ply 0.
    expect(written.filter((row) => row.ply === 0).map((row) => row.game_id).sort((a, b) => a - b)).toEqual([...games.keys()].sort((a, b) => a - b));
    const explorers = async () => {
      const answers = [];
      for (const [id, ply] of samples().filter(([game]) => games.has(game)).slice(0, 8)) answers.push(await (await fetch(`${archive.baseUrl}/positions/explorer?game=${id}&ply=${ply}`)).json());
      return answers;
    };
    const explored = await explorers();
    // Undone (the table and its triggers gone, the opening keys' GIN index back) and done again over the stored rows.
    const migration = new OpeningPositions1765800000000();
    const byWriter = new OpeningRowsByWriter1767500000000();
    const runner = db.createQueryRunner();
    try {
      // The later migration first (it gave the insert trigger's work to the writer), then this one.
      await byWriter.down(runner);
      await migration.down(runner);
      expect((await runner.query(`SELECT to_regclass('opening_positions') AS t, to_regclass('game_positions_openings') AS i`)) as unknown[]).toEqual([{ t: null, i: 'game_positions_openings' }]);
      await migration.up(runner);
      // And as the later migration leaves it: the rows written from then on get their openings from the writer alone.
      await byWriter.up(runner);
    } finally {
      await runner.release();
    }
    expect(await rows()).toEqual(written);
    expect(await explorers()).toEqual(explored);
    await expectSamplesFound();
  });

  /** Every sampled search equals the brute force: the games and their first plies (of the games not deleted by now). */
  const expectSamplesFound = async () => {
    for (const [id, ply] of samples().filter(([id]) => games.has(id))) {
      const { items, total } = await allPages(`/positions/games?game=${id}&ply=${ply}&limit=40`);
      expect(new Map(items.map((item) => [item.id, item.ply]))).toEqual(expected(id, ply, false));
      expect(total).toBe(expected(id, ply, false).size);
    }
  };

  it('finds the same games once the runs of postings are merged, midway through a merge, and after a merge cut short is resumed', async () => {
    const db = archive.app.get<DataSource>(getDataSourceToken());
    const { compactor, postings: repository } = archive.app.get(Indexes).get('positions') as PositionsIndex;
    await compactor.idle();
    // Every upload wrote a run of its own; runs of a size were merged as they came.
    const runs = await repository.runs();
    expect(runs.length).toBeLessThan(games.size / 4);
    expect(runs.every((run) => run.mergingInto === null)).toBe(true);
    const [{ postings }] = (await db.query('SELECT count(*)::int AS postings FROM position_postings')) as { postings: number }[];
    expect(postings).toBeGreaterThan(0);
    await expectSamplesFound();

    // A merge of the merged runs (those cut into more than one row) stopped after its first bucket
    // range, the narrowest a merge's step can be, as a process stopping would leave it.
    expect(runs.every((run) => run.bits === POSTING_BITS)).toBe(true);
    const cut = runs.filter((run) => run.shift < POSTING_BITS);
    expect(cut.length).toBeGreaterThan(0);
    const size = cut.reduce((sum, run) => sum + run.postings, 0);
    const plan = { target: null, shift: shiftFor(size), postings: size, sources: cut.map(({ run, shift }) => ({ run, shift })) };
    const target = (await repository.claimMerge(plan.sources.map((source) => source.run), POSTING_BITS, plan.shift, plan.postings))!;
    expect(target).not.toBeNull();
    // A second claim of one of those runs loses.
    expect(await repository.claimMerge([plan.sources[0].run], POSTING_BITS, plan.shift, 1)).toBeNull();
    const width = 2 ** Math.max(plan.shift, ...plan.sources.map((source) => source.shift));
    expect(width).toBeLessThan(2 ** POSTING_BITS);
    const rows = await repository.rowsIn(plan.sources, 0, width - 1);
    const merged = new BigUint64Array(rows.reduce((sum, row) => sum + postingsInRow(row), 0));
    rows.reduce((at, row) => decodeRow(row, merged, at), 0);
    await repository.moveRange(target, encodeRows(sortedDistinct(merged), plan.shift), plan.sources, 0, width - 1);
    expect((await repository.rowsIn(plan.sources, 0, 2 ** POSTING_BITS - 1)).length).toBeGreaterThan(0);
    await expectSamplesFound();

    // The compactor finds the merge half done and ends it.
    compactor.kick();
    await compactor.idle();
    const after = await repository.runs();
    expect(after.map((run) => run.run)).toEqual([...runs.filter((run) => run.shift === POSTING_BITS).map((run) => run.run), target]);
    expect(after.every((run) => run.mergingInto === null)).toBe(true);
    await expectSamplesFound();
    // A merge vacuums the postings as it goes (every 8 million postings it deletes: never in an
    // archive this size): the statement runs on the connection the merges hold, outside a transaction.
    expect(await repository.whileCompacting((query) => repository.reclaim(query))).toBe(true);
    await expectSamplesFound();
  });

  it('the postings of a game read again or deleted are dropped by the merges, and their marks go once no run is older', async () => {
    const db = archive.app.get<DataSource>(getDataSourceToken());
    const { compactor, postings: repository } = archive.app.get(Indexes).get('positions') as PositionsIndex;
    await compactor.idle();
    const entriesOf = async (id: number) => ((await db.query(`SELECT head || coalesce(tail, ''::bytea) AS entries FROM game_positions WHERE game_id = $1`, [id])) as { entries: Buffer }[])[0].entries;
    const bucketsOf = async (id: number) => laterBuckets({ family: 'go', entries: await entriesOf(id), stride: 11 }).sort((a, b) => a - b);
    const [reread, dropped] = [...games.keys()].filter((id) => id !== orderIds[0]).slice(-2);
    const buckets = await bucketsOf(reread);
    expect(buckets.length).toBeGreaterThan(0);
    // A posting of the game that none of its positions has, in a run written before it is read again.
    const stale = [...Array(buckets.length + 1).keys()].find((bucket) => !buckets.includes(bucket))!;
    await repository.writeRun([{ id: reread, buckets: [stale] }]);
    expect((await fetch(`${archive.baseUrl}/games/${reread}/reindex`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(`${archive.baseUrl}/games/${dropped}`, { method: 'DELETE' })).status).toBe(204);
    games.delete(dropped);
    texts.delete(dropped);
    const marks = ((await db.query('SELECT game_id FROM position_removals')) as { game_id: string }[]).map((row) => Number(row.game_id));
    expect(marks).toEqual(expect.arrayContaining([reread, dropped]));
    await compactor.idle();

    // Every run merged into one, as the compactor ends a merge it finds claimed.
    const runs = await repository.runs();
    const size = runs.reduce((sum, run) => sum + run.postings, 0);
    expect(await repository.claimMerge(runs.map((run) => run.run), POSTING_BITS, shiftFor(size), size)).not.toBeNull();
    compactor.kick();
    await compactor.idle();
    const merged = await repository.runs();
    expect(merged).toHaveLength(1);
    const rows = await repository.rowsIn(merged, 0, 2 ** POSTING_BITS - 1);
    const postings = new BigUint64Array(rows.reduce((sum, row) => sum + postingsInRow(row), 0));
    rows.reduce((at, row) => decodeRow(row, postings, at), 0);
    const words = wordsOf(postings);
    const pairs = [...postings.keys()].map((i) => ({ game: gameOfPosting(words, i), bucket: bucketOfPosting(words, i) }));
    expect(pairs.some((pair) => pair.game === dropped)).toBe(false);
    expect(pairs.filter((pair) => pair.game === reread).map((pair) => pair.bucket)).toEqual(buckets);
    // No run older than the marks is left: they are forgotten.
    expect(await db.query('SELECT game_id FROM position_removals')).toEqual([]);
    await expectSamplesFound();
  });

  it('runs of 20-bit buckets (written before migration 1765700000000) are read beside 24-bit ones, and merged only with their own', async () => {
    const db = archive.app.get<DataSource>(getDataSourceToken());
    const { compactor, postings: repository } = archive.app.get(Indexes).get('positions') as PositionsIndex;
    await compactor.idle();
    // Every game's postings written again: the games in turn into runs of 20-bit and of 24-bit
    // buckets, from their stored entries, as the code before wrote them and as it writes them now.
    const stored = (await db.query(`SELECT game_id, head || coalesce(tail, ''::bytea) AS entries FROM game_positions ORDER BY game_id`)) as { game_id: string; entries: Buffer }[];
    await db.query('DELETE FROM position_postings');
    await db.query('DELETE FROM position_runs');
    const narrow = stored.filter((_, i) => i % 2 === 0);
    const wide = stored.filter((_, i) => i % 2 === 1);
    const written = (rows: typeof stored, bits: number) => rows.map((row) => ({ id: Number(row.game_id), buckets: laterBuckets({ family: 'go', entries: row.entries, stride: 11 }, bits) }));
    // The 20-bit ones in as many runs as start a merge, the 24-bit ones in fewer.
    const per = Math.ceil(narrow.length / MERGE_FANOUT);
    for (let first = 0; first < narrow.length; first += per) await repository.writeRun(written(narrow.slice(first, first + per), 20), undefined, 20);
    for (let first = 0; first < wide.length; first += Math.ceil(wide.length / 3)) await repository.writeRun(written(wide.slice(first, first + Math.ceil(wide.length / 3)), POSTING_BITS));
    const before = await repository.runs();
    expect(before.filter((run) => run.bits === 20)).toHaveLength(MERGE_FANOUT);
    await expectSamplesFound();
    compactor.kick();
    await compactor.idle();
    // The 20-bit runs merged into one of 20 bits; the 24-bit ones, too few to merge, as they were.
    const after = await repository.runs();
    expect(after.filter((run) => run.bits === 20)).toHaveLength(1);
    expect(after.filter((run) => run.bits === POSTING_BITS).map((run) => run.run)).toEqual(before.filter((run) => run.bits === POSTING_BITS).map((run) => run.run));
    expect((await db.query('SELECT DISTINCT bits FROM position_postings WHERE run = $1', [after.find((run) => run.bits === 20)!.run])) as unknown[]).toEqual([{ bits: 20 }]);
    await expectSamplesFound();
  });

  it('a row stored before the runs of postings (its buckets in an array under the GIN index) is still found', async () => {
    const db = archive.app.get<DataSource>(getDataSourceToken());
    await archive.app.get(Indexes).idle();
    // What an archive written before migration 1765600000000 holds: 6 entries of 11 bytes in every
    // row's head, the rest in its tail, the buckets of the tail's keys in the row; no runs.
    await db.query('DELETE FROM position_postings');
    await db.query('DELETE FROM position_runs');
    await db.query(`UPDATE game_positions SET head = substring(head FROM 1 FOR 66), tail = nullif(substring(head FROM 67) || coalesce(tail, ''::bytea), ''::bytea)`);
    await db.query(
      `UPDATE game_positions p SET buckets = (
         SELECT coalesce(array_agg(DISTINCT (get_byte(p.tail, i) << 12) | (get_byte(p.tail, i + 1) << 4) | (get_byte(p.tail, i + 2) >> 4)), '{}')
         FROM generate_series(0, coalesce(octet_length(p.tail), 0) - 1, 11) AS i)`,
    );
    await expectSamplesFound();
  });
});
