import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { sabakiRoot } from '../support/go/sabaki-sgf.js';
import { letters, replay } from '../support/positions/go-replay.js';
import type { Position, Replayed } from '../support/positions/go-replay.js';
import { seeded, turnRows, turnedPoint } from '../support/positions/grids.js';
import type { TransformName } from '../../src/rules/symmetry.js';
import { PositionsRepository } from '../../src/positions/positions.repository.js';

/*
 * A position's history (GET/POST /positions/history) and the explorer by year (`by=year`), checked
 * against a brute force written here: Go games made up in the test (openings that share positions,
 * by transposition and turned, then moves of a seeded generator), dated over thirty-odd years or not
 * at all; each replayed by @sabaki/go-board (not the archive's engine), every position compared with
 * the queried one under the board's eight symmetries by turning rows by hand; the games reaching it,
 * each at its first ply, counted by year and by the move played next.
 */
const SIZE = 9;
const NAMES: TransformName[] = ['identity', 'rotate90', 'rotate180', 'rotate270', 'mirrorX', 'mirrorY', 'transpose', 'antiTranspose'];
const PLAYERS = ['Kato Masao', 'Lee Changho', 'Cho Chikun', 'Go Seigen', 'Otake Hideo', 'Rin Kaiho'];
/** Openings as SGF points, black first: the first and second reach one position by different orders; the third is the first's mirror image. */
const OPENINGS = [
  ['cc', 'gg', 'cg', 'gc'],
  ['cg', 'gc', 'cc', 'gg'],
  ['gc', 'cg', 'gg', 'cc'],
  ['ee', 'cc', 'gg'],
  ['ee', 'gc', 'cg', 'cc'],
];

/** Ranks as files write them, each with its place on the scale worked out by hand (30k = -29 … 1k = 0, 1d = 1 … 9d = 9, 1p = 10 … 9p = 18). */
const RANKS: [string, number][] = [
  ['5d', 5], ['3 kyu', -2], ['2段', 2], ['9p', 18], ['15級', -14], ['4단', 4], ['初段', 1], ['9 dan pro', 18],
  ['1p', 10], ['30k', -29], ['12k?', -11], ['7 Dan', 7], ['プロ9段', 18], ['10급', -9], ['1k', 0], ['3 dan', 3],
];
/** A rank rounded to the nearest written as players write it, by hand. */
const RANK_TEXT = (rank: number) => (rank <= 0 ? `${1 - rank}k` : rank <= 9 ? `${rank}d` : `${rank - 9}p`);

interface Made {
  readonly sgf: string;
  readonly date: string | null;
  readonly black: string;
  readonly white: string;
  /** The players' ranks on the scale, null where the file writes none. */
  readonly blackRank: number | null;
  readonly whiteRank: number | null;
}

const text = (position: Position) => `${position.toMove}|${position.rows.map((row) => row.join(',')).join('/')}`;
const point = (x: number, y: number) => String.fromCharCode(97 + x, 97 + y);

/** A game: an opening (turned by a symmetry now and then), then 2 to 9 moves the rules allow, checked by replaying. */
function makeGame(random: () => number, index: number): Made {
  const name = NAMES[Math.floor(random() * 4) * 2 % 8];
  // Every ninth game a handicap game: two black stones set up, white moving first, from a start of its own.
  const handicap = index % 9 === 8;
  const opening = (handicap ? [] : OPENINGS[index % OPENINGS.length]).map((p) => {
    const [x, y] = letters(p);
    const [tx, ty] = turnedPoint(x, y, SIZE, SIZE, index % 3 === 0 ? name : 'identity');
    return point(tx, ty);
  });
  const moves = [...opening];
  const extra = 2 + Math.floor(random() * 8);
  const first = handicap ? 'W' : 'B';
  const second = handicap ? 'B' : 'W';
  const sgfOf = (list: string[]) => `(;GM[1]SZ[${SIZE}]${handicap ? 'HA[2]AB[cc][gg]' : ''}${list.map((p, i) => `;${i % 2 === 0 ? first : second}[${p}]`).join('')})`;
  for (let tries = 0; moves.length < opening.length + extra && tries < 200; tries++) {
    const candidate = point(Math.floor(random() * SIZE), Math.floor(random() * SIZE));
    if (moves.includes(candidate) || (handicap && (candidate === 'cc' || candidate === 'gg'))) continue;
    const replayed = replay(sabakiRoot(Buffer.from(sgfOf([...moves, candidate]))));
    if (replayed && replayed.moves.length === moves.length + 1) moves.push(candidate);
  }
  const dated = random() > 0.15;
  const year = 1988 + Math.floor(random() * 36);
  const date = dated ? `${year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}` : null;
  const black = PLAYERS[Math.floor(random() * PLAYERS.length)];
  const white = PLAYERS[Math.floor(random() * PLAYERS.length)];
  const rankOf = () => (random() < 0.2 ? null : RANKS[Math.floor(random() * RANKS.length)]);
  const [blackRank, whiteRank] = [rankOf(), rankOf()];
  const written = (id: string, rank: [string, number] | null) => (rank === null ? '' : `${id}[${rank[0]}]`);
  const root = `CA[UTF-8]SZ[${SIZE}]PB[${black}]${written('BR', blackRank)}PW[${white}]${written('WR', whiteRank)}${date === null ? '' : `DT[${date}]`}`;
  const sgf = sgfOf(moves).replace(`SZ[${SIZE}]`, root);
  return { sgf, date, black, white, blackRank: blackRank?.[1] ?? null, whiteRank: whiteRank?.[1] ?? null };
}

interface Expected {
  readonly years: { year: number; games: number }[];
  readonly undated: number;
  readonly games: number;
  /** Per move (the set of its points in the queried board's orientation, sorted and joined), its games. */
  readonly moves: Map<string, { games: number; years: Map<number, number>; yearSum: number; dated: number; rankSum: number; ranked: number }>;
}

describe('positions: history and the explorer by year against a brute force', () => {
  let archive: TestArchive;
  const games = new Map<number, { made: Made; replayed: Replayed; texts: string[] }>();

  beforeAll(async () => {
    archive = await startArchive();
    const random = seeded(46);
    for (let i = 0; i < 90; i++) {
      const made = makeGame(random, i);
      const response = await post(archive, `/games?filename=g${i}.sgf`, made.sgf);
      expect([200, 201]).toContain(response.status);
      const id = Number(((await response.json()) as { id: number | string }).id);
      const replayed = replay(sabakiRoot(Buffer.from(made.sgf)))!;
      games.set(id, { made, replayed, texts: replayed.positions.map(text) });
    }
  }, 180_000);
  afterAll(async () => {
    await archive?.close();
  });

  /** The brute force: the games reaching `query` (all symmetries, or as it stands), kept by `keep`, by year and by the move played next. */
  const expected = (query: Position, exact: boolean, keep: (made: Made) => boolean = () => true): Expected => {
    const wanted = new Set((exact ? ['identity' as TransformName] : NAMES).map((name) => text({ rows: turnRows(query.rows, name), toMove: query.toMove })));
    const byYear = new Map<number, number>();
    let undated = 0;
    let total = 0;
    const moves: Expected['moves'] = new Map();
    for (const { made, replayed, texts } of games.values()) {
      if (!keep(made)) continue;
      const ply = texts.findIndex((t) => wanted.has(t));
      if (ply < 0) continue;
      total++;
      const year = made.date === null ? null : Number(made.date.slice(0, 4));
      if (year === null) undated++;
      else byYear.set(year, (byYear.get(year) ?? 0) + 1);
      if (ply >= replayed.moves.length) continue;
      const played = replayed.moves[ply];
      // The move in the queried board's orientation, by every symmetry turning the game's board into the queried one.
      const there = replayed.positions[ply];
      const points = new Set<string>();
      for (const name of NAMES) {
        if (text({ rows: turnRows(there.rows, name), toMove: there.toMove }) !== text(query)) continue;
        points.add(played === null ? '' : point(...turnedPoint(played[0], played[1], SIZE, SIZE, name)));
      }
      const key = [...points].sort().join(' ');
      const move = moves.get(key) ?? { games: 0, years: new Map<number, number>(), yearSum: 0, dated: 0, rankSum: 0, ranked: 0 };
      move.games++;
      // The player of the colour to move (white first in the handicap games) played the move.
      const rank = there.toMove === 1 ? made.blackRank : made.whiteRank;
      if (rank !== null) {
        move.rankSum += rank;
        move.ranked++;
      }
      if (year !== null) {
        move.years.set(year, (move.years.get(year) ?? 0) + 1);
        move.yearSum += year;
        move.dated++;
      }
      moves.set(key, move);
    }
    const years = [...byYear].map(([year, games]) => ({ year, games })).sort((a, b) => a.year - b.year);
    return { years, undated, games: total, moves };
  };

  const getJson = async <T>(path: string, status = 200): Promise<T> => {
    const response = await fetch(`${archive.baseUrl}${path}`);
    const body = await response.text();
    if (response.status !== status) throw new Error(`${path} answered ${response.status}: ${body}`);
    return JSON.parse(body) as T;
  };

  interface ExplorerMove {
    move: string;
    games: number;
    years?: { year: number; games: number }[];
    averageYear?: number | null;
    averageRank?: number | null;
    averageRankText?: string | null;
    averageRating?: number | null;
  }

  /** How many moves compared had a known average rank (the suite checks it saw some). */
  let ranksSeen = 0;
  const expectExplorer = (answer: { games: number; moves: ExplorerMove[] }, want: Expected) => {
    expect(answer.games).toBe(want.games);
    const seen = new Set<string>();
    for (const move of answer.moves) {
      const key = [...want.moves.keys()].find((k) => k.split(' ').includes(move.move));
      expect(key).toBeDefined();
      seen.add(key!);
      const wanted = want.moves.get(key!)!;
      expect(move.games).toBe(wanted.games);
      expect(move.years).toEqual([...wanted.years].map(([year, games]) => ({ year, games })).sort((a, b) => a.year - b.year));
      expect(move.averageYear).toBe(wanted.dated === 0 ? null : Math.round((wanted.yearSum / wanted.dated) * 10) / 10);
      const rank = wanted.ranked === 0 ? null : wanted.rankSum / wanted.ranked;
      expect(move.averageRank).toBe(rank === null ? null : Math.round(rank * 10) / 10);
      expect(move.averageRankText).toBe(rank === null ? null : RANK_TEXT(Math.round(rank)));
      expect(move.averageRating).toBeUndefined();
      if (rank !== null) ranksSeen++;
    }
    expect(seen.size).toBe(want.moves.size);
  };

  /** Positions to ask about: the start, each opening's plies (shared by transposition and turning), and plies further on. */
  const samples = (): [number, number][] => {
    const ids = [...games.keys()].sort((a, b) => a - b);
    const picks: [number, number][] = [[ids[0], 0]];
    for (let i = 0; i < 5; i++) for (const ply of [1, 2, 3, 4]) picks.push([ids[i], ply]);
    // The handicap games' start (white to move) and a ply of each of two of them.
    picks.push([ids[8], 0], [ids[8], 1], [ids[17], 2]);
    for (let i = 5; i < ids.length; i += 11) picks.push([ids[i], games.get(ids[i])!.replayed.positions.length - 1], [ids[i], 5]);
    return picks;
  };

  it('counts the games reaching a position by year, each once, as the brute force does', async () => {
    let compared = 0;
    for (const [id, ply] of samples()) {
      const want = expected(games.get(id)!.replayed.positions[ply], false);
      const answer = await getJson<{ years: unknown; undated: number; games: number }>(`/positions/history?game=${id}&ply=${ply}`);
      expect(answer).toEqual({ years: want.years, undated: want.undated, games: want.games });
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
    // The empty board: every game but the handicap ones, over many years, some undated.
    const start = await getJson<{ years: unknown[]; undated: number; games: number }>(`/positions/history?game=${[...games.keys()][0]}&ply=0`);
    expect(start.games).toBe([...games.values()].filter(({ made }) => !made.sgf.includes('HA[')).length);
    expect(start.years.length).toBeGreaterThan(15);
    expect(start.undated).toBeGreaterThan(0);
  });

  it('counts the moves played next by year, with their average year, as the brute force does', async () => {
    for (const [id, ply] of samples()) {
      const want = expected(games.get(id)!.replayed.positions[ply], false);
      expectExplorer(await getJson(`/positions/explorer?game=${id}&ply=${ply}&by=year`), want);
    }
    expect(ranksSeen).toBeGreaterThan(20);
    // Without `by`, the explorer answers as before: no years.
    const [id] = [...games.keys()];
    const plain = await getJson<{ moves: ExplorerMove[] }>(`/positions/explorer?game=${id}&ply=2`);
    expect(plain.moves.length).toBeGreaterThan(0);
    for (const move of plain.moves) expect(move.years).toBeUndefined();
  });

  it.each([
    ['as the planner chooses', PositionsRepository.narrowFirstFrom],
    ['with the filters applied first', 0],
  ])('applies the filters of GET /games and an exact match (%s)', async (_name, narrowFirstFrom) => {
    const ids = [...games.keys()].sort((a, b) => a - b);
    const before = PositionsRepository.narrowFirstFrom;
    PositionsRepository.narrowFirstFrom = narrowFirstFrom;
    try {
      await filtered(ids);
    } finally {
      PositionsRepository.narrowFirstFrom = before;
    }
  });

  const filtered = async (ids: number[]) => {
    for (const [id, ply] of [[ids[0], 0], [ids[1], 4], [ids[2], 2]] as [number, number][]) {
      const query = games.get(id)!.replayed.positions[ply];
      const byPlayer = expected(query, false, (made) => made.black === 'Cho Chikun' || made.white === 'Cho Chikun');
      expect(await getJson(`/positions/history?game=${id}&ply=${ply}&player=${encodeURIComponent('Cho Chikun')}`)).toEqual({ years: byPlayer.years, undated: byPlayer.undated, games: byPlayer.games });
      expectExplorer(await getJson(`/positions/explorer?game=${id}&ply=${ply}&by=year&player=${encodeURIComponent('Cho Chikun')}`), byPlayer);
      const since = expected(query, false, (made) => made.date !== null && made.date >= '2005-01-01');
      expect(since.undated).toBe(0);
      expect(await getJson(`/positions/history?game=${id}&ply=${ply}&playedFrom=2005-01-01`)).toEqual({ years: since.years, undated: 0, games: since.games });
      expectExplorer(await getJson(`/positions/explorer?game=${id}&ply=${ply}&by=year&playedFrom=2005-01-01`), since);
      const exact = expected(query, true);
      expect(await getJson(`/positions/history?game=${id}&ply=${ply}&symmetry=none`)).toEqual({ years: exact.years, undated: exact.undated, games: exact.games });
    }
  };

  it('answers a position written out (POST), turned, as the same position in a game', async () => {
    const ids = [...games.keys()].sort((a, b) => a - b);
    const position = games.get(ids[0])!.replayed.positions[4];
    const turned = turnRows(position.rows, 'rotate90');
    const stones = (sign: number) => turned.flatMap((row, y) => row.flatMap((cell, x) => (cell === sign ? [`[${point(x, y)}]`] : []))).join('');
    const sgf = `(;GM[1]SZ[${SIZE}]AB${stones(1)}AW${stones(-1)}PL[${position.toMove === 1 ? 'B' : 'W'}])`;
    const want = expected({ rows: turned, toMove: position.toMove }, false);
    const history = await post(archive, '/positions/history', JSON.stringify({ family: 'go', sgf }), { 'content-type': 'application/json' });
    expect(history.status).toBe(200);
    expect(await history.json()).toEqual({ years: want.years, undated: want.undated, games: want.games });
    expect(want.games).toBeGreaterThan(10);
    const explorer = await post(archive, '/positions/explorer', JSON.stringify({ family: 'go', sgf, by: 'year' }), { 'content-type': 'application/json' });
    expect(explorer.status).toBe(200);
    expectExplorer((await explorer.json()) as { games: number; moves: ExplorerMove[] }, want);
  });

  it('refuses bad input', async () => {
    const [id] = [...games.keys()];
    const problem = async (response: Response, status: number, code: string) => {
      expect(response.status).toBe(status);
      const body = (await response.json()) as { code: string; detail: string };
      expect(body.code).toBe(code);
      return body.detail;
    };
    expect(await problem(await fetch(`${archive.baseUrl}/positions/explorer?game=${id}&ply=0&by=month`), 400, 'request.invalid')).toMatch(/\bby\b/);
    expect(
      await problem(await post(archive, '/positions/explorer', JSON.stringify({ family: 'go', sgf: `(;SZ[${SIZE}]AB[cc])`, by: 'player' }), { 'content-type': 'application/json' }), 400, 'request.invalid'),
    ).toMatch(/\bby\b/);
    await problem(await fetch(`${archive.baseUrl}/positions/history?game=${id}&ply=0&by=year`), 400, 'request.invalid');
    await problem(await fetch(`${archive.baseUrl}/positions/history?game=${id}`), 400, 'request.invalid');
    await problem(await fetch(`${archive.baseUrl}/positions/history?game=${id}&ply=999`), 422, 'position.ply_out_of_range');
    await problem(await fetch(`${archive.baseUrl}/positions/history?game=99999999&ply=0`), 404, 'game.not_found');
    await problem(await fetch(`${archive.baseUrl}/positions/history?game=${id}&ply=0&playedFrom=yesterday`), 400, 'request.invalid');
    await problem(await post(archive, '/positions/history', JSON.stringify({ family: 'go', sgf: '(;SZ[9]AB[zz])' }), { 'content-type': 'application/json' }), 400, 'position.invalid');
  });
});
