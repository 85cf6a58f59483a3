import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { post, startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { seededRandom } from '../support/seeded-random.js';

/*
 * The ranks index (src/indexes/ranks) through the filters rankMin, rankMax, ratingMin and ratingMax:
 * SGF games whose players' ranks and ratings are written in the forms files use, searched on
 * GET /games, a position route and the export, and the answers compared with a brute force over
 * what the test wrote. What each written form means is this file's own table, written by hand on
 * the scale 30k = -29 … 1k = 0, 1d = 1 … 9d = 9, 1p = 10 … 9p = 18.
 */

/** Written rank → its place on the scale and the text the archive writes for it. */
const RANKS: Readonly<Record<string, readonly [number, string]>> = {
  '5d': [5, '5d'],
  '5D': [5, '5d'],
  '5 dan': [5, '5d'],
  '7 dan': [7, '7d'],
  '2段': [2, '2d'],
  '9段': [9, '9d'],
  '4단': [4, '4d'],
  '初段': [1, '1d'],
  '1d': [1, '1d'],
  '3k': [-2, '3k'],
  '3 kyu': [-2, '3k'],
  '1k': [0, '1k'],
  '15級': [-14, '15k'],
  '10급': [-9, '10k'],
  '30k': [-29, '30k'],
  '1p': [10, '1p'],
  '9P': [18, '9p'],
  '9 pro': [18, '9p'],
  '5d*': [5, '5d'],
  '5d?': [5, '5d'],
};
/** Written numeric ratings and their values. */
const RATINGS: Readonly<Record<string, number>> = {
  '2100': 2100,
  '1850.5': 1850.5,
  '1500?': 1500,
  '2400': 2400,
  '1990': 1990,
};
/** Written, but neither a rank nor a rating: such a player leaves the game out of every rank and rating filter. */
const NEITHER = ['strong', '?', '10d', 'dan', '31k', 'amateur 5 dan'];
/** What a player's BR or WR may hold; null: the property is not written. */
const WRITTEN: readonly (string | null)[] = [...Object.keys(RANKS), ...Object.keys(RATINGS), ...NEITHER, null];

interface WrittenGame {
  readonly id: number;
  /** Black's and White's written rank or rating (null: none written). */
  readonly written: readonly [string | null, string | null];
}

const rankOf = (written: string | null): number | null => (written !== null && written in RANKS ? RANKS[written][0] : null);
const ratingOf = (written: string | null): number | null => (written !== null && written in RATINGS ? RATINGS[written] : null);

/** A Go game on 19x19 opening at Q16 (so that every game reaches the position after ply 1), told apart by its name. */
function sgfGame(n: number, black: string | null, white: string | null): string {
  const rank = (property: string, value: string | null) => (value === null ? '' : `${property}[${value}]`);
  return `(;GM[1]FF[4]CA[UTF-8]SZ[19]GN[ranks ${n}]PB[Black ${n}]PW[White ${n}]${rank('BR', black)}${rank('WR', white)};B[pd];W[dp];B[${'abcdefghijklmnopqrs'[n % 19]}q])`;
}

describe('the ranks index: rank and rating filters', () => {
  let archive: TestArchive;
  let db: DataSource;
  const games: WrittenGame[] = [];

  const get = async (path: string): Promise<Response> => fetch(`${archive.baseUrl}${path}`);
  /** Every game a search finds, following its cursors, in id order; checks that no game comes twice. */
  const found = async (query: string, limit = 100): Promise<number[]> => {
    const ids: number[] = [];
    let next: string | null = null;
    do {
      const response = await get(next === null ? `/games?limit=${limit}&${query}` : `/games?limit=${limit}&cursor=${next}`);
      expect({ query, status: response.status }).toEqual({ query, status: 200 });
      const page = (await response.json()) as { items: { id: number }[]; next: string | null };
      ids.push(...page.items.map((game) => game.id));
      next = page.next;
    } while (next !== null);
    expect(new Set(ids).size).toBe(ids.length);
    return ids.sort((a, b) => a - b);
  };
  /** The brute force: the games whose two players both have a value (by `valueOf`) between `low` and `high`. */
  const expected = (valueOf: (written: string | null) => number | null, low: number | null, high: number | null): number[] =>
    games
      .filter((game) =>
        game.written.every((written) => {
          const value = valueOf(written);
          return value !== null && (low === null || value >= low) && (high === null || value <= high);
        }),
      )
      .map((game) => game.id)
      .sort((a, b) => a - b);
  const problem = async (path: string): Promise<{ status: number; code: string; detail: string }> => {
    const response = await get(path);
    const body = (await response.json()) as { code: string; detail: string };
    return { status: response.status, code: body.code, detail: body.detail };
  };

  beforeAll(async () => {
    archive = await startArchive();
    db = archive.app.get<DataSource>(getDataSourceToken());
    const random = seededRandom(46);
    const pick = (): string | null => WRITTEN[Math.floor(random() * WRITTEN.length)];
    const pairs: [string | null, string | null][] = [
      // Each form at least once, against a rank that many ranges hold.
      ...WRITTEN.map((written): [string | null, string | null] => [written, '5d']),
      // And against itself, so that each value is a game's lowest and highest.
      ...WRITTEN.map((written): [string | null, string | null] => [written, written]),
      ...Array.from({ length: 50 }, (): [string | null, string | null] => [pick(), pick()]),
      // Games of ratings only, and of one rank against one rating.
      ['2100', '1850.5'],
      ['2400', '1990'],
      ['1500?', '2100'],
      ['2100', '3k'],
    ];
    for (const [n, [black, white]] of pairs.entries()) {
      const response = await post(archive, '/games', sgfGame(n, black, white), { 'Content-Type': 'application/x-go-sgf' });
      expect(response.status).toBe(201);
      games.push({ id: ((await response.json()) as { id: number }).id, written: [black, white] });
    }
  }, 180_000);
  afterAll(async () => {
    await archive?.close();
  });

  /** Rank ranges as sent, each with its bounds on the scale, by hand. */
  const RANK_QUERIES: readonly { query: Record<string, string>; low: number | null; high: number | null }[] = [
    { query: { rankMin: '5d' }, low: 5, high: null },
    { query: { rankMin: '5 dan' }, low: 5, high: null },
    { query: { rankMax: '1k' }, low: null, high: 0 },
    { query: { rankMin: '3 kyu', rankMax: '2段' }, low: -2, high: 2 },
    { query: { rankMin: '1p' }, low: 10, high: null },
    { query: { rankMin: '30k', rankMax: '9p' }, low: -29, high: 18 },
    { query: { rankMin: '9段', rankMax: '9d' }, low: 9, high: 9 },
    { query: { rankMin: '15級', rankMax: '10급' }, low: -14, high: -9 },
    { query: { rankMin: '5d', rankMax: '5D' }, low: 5, high: 5 },
    { query: { rankMax: '9段' }, low: null, high: 9 },
    { query: { rankMin: '4단', rankMax: '9 pro' }, low: 4, high: 18 },
  ];

  /** Each value the games' ranks take, written plainly (as a range's end), by hand. */
  const PLAIN: readonly [number, string][] = [
    [-29, '30k'],
    [-14, '15k'],
    [-9, '10k'],
    [-2, '3k'],
    [0, '1k'],
    [1, '1d'],
    [2, '2d'],
    [4, '4d'],
    [5, '5d'],
    [7, '7d'],
    [9, '9d'],
    [10, '1p'],
    [18, '9p'],
  ];

  it('takes each rank the games hold as a range\'s end, inclusive', async () => {
    expect(new Set(Object.values(RANKS).map(([value]) => value))).toEqual(new Set(PLAIN.map(([value]) => value)));
    for (const [value, text] of PLAIN) {
      for (const [query, low, high] of [
        [`rankMin=${text}&rankMax=${text}`, value, value],
        [`rankMin=${text}`, value, null],
        [`rankMax=${text}`, null, value],
      ] as const) {
        const ids = expected(rankOf, low, high);
        if (low === high) expect(ids.length).toBeGreaterThan(0);
        expect({ query, ids: await found(query) }).toEqual({ query, ids });
      }
    }
  });

  it('finds the games whose players both lie in a rank range, in any form the range is written', async () => {
    let nonEmpty = 0;
    for (const { query, low, high } of RANK_QUERIES) {
      const ids = expected(rankOf, low, high);
      nonEmpty += ids.length > 0 ? 1 : 0;
      expect({ query, ids: await found(new URLSearchParams(query).toString()) }).toEqual({ query, ids });
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(8);
  });

  it('leaves out games with a player whose rank no form reads, or with one rank only', async () => {
    const everyRank = await found('rankMin=30k');
    const unmatched = games.filter((game) => game.written.some((written) => written !== null && NEITHER.includes(written)));
    const oneSided = games.filter((game) => game.written.some((written) => written === null) && game.written.some((written) => rankOf(written) !== null));
    expect(unmatched.length).toBeGreaterThan(5);
    expect(oneSided.length).toBeGreaterThan(0);
    for (const game of [...unmatched, ...oneSided]) expect(everyRank).not.toContain(game.id);
    // A game is found by its ranks, not its ratings: the rank-against-rating games are in neither.
    const mixed = games.filter((game) => game.written.some((written) => rankOf(written) !== null) && game.written.some((written) => ratingOf(written) !== null));
    expect(mixed.length).toBeGreaterThan(0);
    const everyRating = await found('ratingMin=-1000000');
    for (const game of mixed) {
      expect(everyRank).not.toContain(game.id);
      expect(everyRating).not.toContain(game.id);
    }
  });

  it('finds the games whose players both have a numeric rating in a range', async () => {
    const queries: readonly { query: Record<string, string>; low: number | null; high: number | null }[] = [
      { query: { ratingMin: '1900' }, low: 1900, high: null },
      { query: { ratingMax: '2000' }, low: null, high: 2000 },
      { query: { ratingMin: '1850.5', ratingMax: '2100' }, low: 1850.5, high: 2100 },
      { query: { ratingMin: '1850.6' }, low: 1850.6, high: null },
      { query: { ratingMin: '1500', ratingMax: '1500' }, low: 1500, high: 1500 },
      { query: { ratingMin: '0' }, low: 0, high: null },
      ...[2100, 1850.5, 1500, 2400, 1990].flatMap((value): { query: Record<string, string>; low: number | null; high: number | null }[] => [
        { query: { ratingMin: String(value), ratingMax: String(value) }, low: value, high: value },
        { query: { ratingMin: String(value) }, low: value, high: null },
        { query: { ratingMax: String(value) }, low: null, high: value },
      ]),
    ];
    let nonEmpty = 0;
    for (const { query, low, high } of queries) {
      const ids = expected(ratingOf, low, high);
      nonEmpty += ids.length > 0 ? 1 : 0;
      expect({ query, ids: await found(new URLSearchParams(query).toString()) }).toEqual({ query, ids });
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(4);
  });

  it('follows a rank search page by page with its cursor alone', async () => {
    const ids = expected(rankOf, -2, 9);
    expect(ids.length).toBeGreaterThan(6);
    expect(await found('rankMin=3k&rankMax=9%E6%AE%B5', 3)).toEqual(ids);
    // A filter sent beside the cursor must be the cursor's.
    const first = (await (await get('/games?limit=2&rankMin=3k')).json()) as { next: string };
    expect((await problem(`/games?cursor=${first.next}&rankMin=3k`)).status).toBe(200);
    const other = await problem(`/games?cursor=${first.next}&rankMin=2k`);
    expect(other).toMatchObject({ status: 400, code: 'request.invalid' });
    expect(other.detail).toContain('rankMin');
  });

  it('refuses a rank that is no rank, and a range whose low end is above its high end', async () => {
    for (const [path, names] of [
      ['/games?rankMin=strong', ['rankMin']],
      ['/games?rankMax=10d', ['rankMax']],
      ['/games?rankMin=5', ['rankMin']],
      ['/games?rankMin=5d&rankMax=3k', ['rankMin', 'rankMax']],
      ['/games?rankMin=1p&rankMax=9d', ['rankMin', 'rankMax']],
      ['/games?ratingMin=abc', ['ratingMin']],
      ['/games?ratingMin=2000&ratingMax=1999.5', ['ratingMin', 'ratingMax']],
      ['/games/export?rankMin=strong', ['rankMin']],
    ] as const) {
      const answer = await problem(path);
      expect({ path, status: answer.status, code: answer.code }).toEqual({ path, status: 400, code: 'request.invalid' });
      for (const name of names) expect({ path, detail: answer.detail }).toEqual({ path, detail: expect.stringContaining(name) });
    }
  });

  it('shows each player\'s rank as the archive writes it', async () => {
    for (const game of games.slice(0, WRITTEN.length)) {
      const response = await get(`/games/${game.id}`);
      const players = ((await response.json()) as { players: { seat: number; rating: string | null; rank: string | null }[] }).players;
      const shown = (written: string | null) => (written !== null && written in RANKS ? RANKS[written][1] : null);
      expect(players.map((player) => [player.rating, player.rank])).toEqual(game.written.map((written) => [written, shown(written)]));
    }
  });

  it('keeps the ranks and ratings by seat in game_ranks, a row only for games with one', async () => {
    const rows = await db.query<{ game_id: string; ranks: number[]; ratings: number[]; low_rank: number | null; high_rating: number | null }[]>(
      `SELECT game_id, ranks, ratings, low_rank, high_rating FROM game_ranks ORDER BY game_id`,
    );
    const byGame = new Map(rows.map((row) => [Number(row.game_id), row]));
    for (const game of games) {
      const ranks = game.written.map(rankOf);
      const ratings = game.written.map(ratingOf);
      const row = byGame.get(game.id);
      if ([...ranks, ...ratings].every((value) => value === null)) {
        expect({ game: game.written, row }).toEqual({ game: game.written, row: undefined });
        continue;
      }
      expect({ game: game.written, ranks: row?.ranks, ratings: row?.ratings }).toEqual({ game: game.written, ranks, ratings });
      expect(row?.low_rank).toBe(ranks.every((rank) => rank !== null) ? Math.min(...(ranks as number[])) : null);
      expect(row?.high_rating).toBe(ratings.every((rating) => rating !== null) ? Math.max(...(ratings as number[])) : null);
    }
  });

  it('applies the filters to the position search, the explorer and the export', async () => {
    const ids = expected(rankOf, 5, null);
    expect(ids.length).toBeGreaterThan(2);
    const positions = (await (await get(`/positions/games?game=${games[0].id}&ply=1&limit=100&rankMin=5d`)).json()) as { items: { id: number }[]; total: number };
    expect(positions.items.map((game) => game.id).sort((a, b) => a - b)).toEqual(ids);
    expect(positions.total).toBe(ids.length);
    const explorer = (await (await get(`/positions/explorer?game=${games[0].id}&ply=1&rankMin=5d`)).json()) as { games: number; moves: { move: string; games: number }[] };
    expect(explorer.games).toBe(ids.length);
    expect(explorer.moves.reduce((sum, move) => sum + move.games, 0)).toBe(ids.length);
    const rated = expected(ratingOf, 1900, 2400);
    expect(rated.length).toBeGreaterThan(0);
    const exported = await get('/games/export?ratingMin=1900&ratingMax=2400');
    expect(exported.status).toBe(200);
    const lines = (await exported.text()).split('\n').filter((line) => line !== '');
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id).sort((a, b) => a - b)).toEqual(rated);
    const refused = await problem(`/positions/explorer?game=${games[0].id}&ply=1&rankMin=strong`);
    expect(refused).toMatchObject({ status: 400, code: 'request.invalid' });
    expect(refused.detail).toContain('rankMin');
  });

  it('is written again by POST /reindex?indexes=ranks', async () => {
    const before = await db.query(`SELECT game_id, ranks, ratings, low_rank, high_rank, low_rating, high_rating FROM game_ranks ORDER BY game_id`);
    expect(before.length).toBeGreaterThan(10);
    await db.query(`DELETE FROM game_ranks`);
    expect(await found('rankMin=30k')).toEqual([]);
    const reindex = await fetch(`${archive.baseUrl}/reindex?indexes=ranks&limit=1000`, { method: 'POST' });
    expect(reindex.status).toBe(200);
    expect(await db.query(`SELECT game_id, ranks, ratings, low_rank, high_rank, low_rating, high_rating FROM game_ranks ORDER BY game_id`)).toEqual(before);
    expect(await found('rankMin=30k')).toEqual(expected(rankOf, null, null));
  });
});
