import { foundIds, post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * Searching by how the recorded result came about, the winner's margin, the rules, and the players'
 * ratings. The games are small SGF files written here; what each should give is read off its own
 * RE, RU, BR and WR as SGF defines them (B+R resignation, B+T time, W+2.5 a counted margin, 0 a draw).
 */
const GAMES: Record<string, string> = {
  japanese: '(;GM[1]FF[4]SZ[9]RU[Japanese]PB[Ann]BR[3d]PW[Bob]WR[5d]RE[W+2.5];B[ee];W[cc])',
  resigned: '(;GM[1]FF[4]SZ[9]RU[chinese]PB[Cid]PW[Dee]RE[B+R];B[ee])',
  onTime: '(;GM[1]FF[4]SZ[9]PB[Eve]PW[Fay]RE[B+T];B[ee])',
  jigo: '(;GM[1]FF[4]SZ[9]PB[Gus]PW[Hal]RE[0];B[ee])',
  twelve: '(;GM[1]FF[4]SZ[9]PB[Ian]PW[Jo]RE[B+12];B[ee])',
  dots: '(;GM[40]FF[4]SZ[10]PB[Kim]PW[Lee]RE[W+R];B[ee];W[ef])',
  noResult: '(;GM[1]FF[4]SZ[9]PB[Max]PW[Ned];B[ee])',
};

describe('search by result, margin, rules; players\' ratings', () => {
  let archive: TestArchive;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    archive = await startArchive();
    for (const [name, sgf] of Object.entries(GAMES)) {
      const response = await post(archive, `/games?filename=${name}.sgf`, sgf, { 'Content-Type': 'application/x-go-sgf' });
      expect(response.status).toBe(201);
      ids[name] = (await response.json()).id;
    }
  });
  afterAll(async () => {
    await archive.close();
  });

  const found = (query: string) => foundIds(archive, query);
  const newestFirst = (...names: string[]) => names.map((name) => ids[name]).sort((a, b) => b - a);

  it('gives each game how it ended, the margin and the ratings', async () => {
    const game = await (await fetch(`${archive.baseUrl}/games/${ids.japanese}`)).json();
    expect(game.facts).toMatchObject({ rules: 'Japanese', ending: 'score', margin: 2.5 });
    expect(game.players.map((player: { rating: string | null }) => player.rating)).toEqual(['3d', '5d']);
    const open = await (await fetch(`${archive.baseUrl}/games/${ids.noResult}`)).json();
    expect(open.facts).toMatchObject({ ending: null, margin: null });
    expect(open.players.map((player: { rating: string | null }) => player.rating)).toEqual([null, null]);
  });

  it('finds games by how the result came about', async () => {
    expect(await found('ending=resignation')).toEqual(newestFirst('resigned', 'dots'));
    expect(await found('ending=time')).toEqual(newestFirst('onTime'));
    expect(await found('ending=draw')).toEqual(newestFirst('jigo'));
    expect(await found('ending=score')).toEqual(newestFirst('japanese', 'twelve'));
    expect((await fetch(`${archive.baseUrl}/games?ending=won`)).status).toBe(400);
  });

  it('finds games by the winner\'s margin, and a counted draw has margin 0', async () => {
    expect(await found('marginMin=3')).toEqual(newestFirst('twelve'));
    expect(await found('marginMax=3')).toEqual(newestFirst('japanese', 'jigo'));
    expect(await found('marginMin=2.5&marginMax=2.5')).toEqual(newestFirst('japanese'));
    expect((await fetch(`${archive.baseUrl}/games?marginMin=-1`)).status).toBe(400);
    expect((await fetch(`${archive.baseUrl}/games?marginMax=lots`)).status).toBe(400);
  });

  it('finds games by the rules named, whole and case-insensitively, and pages through a cursor', async () => {
    expect(await found('rules=JAPANESE')).toEqual(newestFirst('japanese'));
    expect(await found('rules=Chinese')).toEqual(newestFirst('resigned'));
    expect(await found('rules=Japan')).toEqual([]);
    expect(await found('rating=5D')).toEqual(newestFirst('japanese'));
    expect(await found('rating=5')).toEqual([]);
    const first = await (await fetch(`${archive.baseUrl}/games?ending=resignation&limit=1`)).json();
    const second = await (await fetch(`${archive.baseUrl}/games?cursor=${first.next}`)).json();
    expect([...first.items, ...second.items].map((game: { id: number }) => game.id)).toEqual(newestFirst('resigned', 'dots'));
  });
});
