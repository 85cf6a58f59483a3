import { readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * Player statistics, counted by hand from the files uploaded here. In every GoFans example Anna
 * resigned (Points −1), so she lost and Bernd won; the variants below change the Points and the
 * closing passes: one pass and no score is unfinished, two passes with equal Points is a jigo. The
 * unfinished ones play White's stone elsewhere, so that they are games of their own: examples 1.1 and
 * 1.2 hold one game (1.2's fourth move is a variation), which the statistics count once.
 */
const example = (version: string): string => readFileSync(new URL(`../fixtures/gofans-examples/ex_${version}.xml`, import.meta.url), 'utf8');
const EX_11 = example('1.1');
const UNFINISHED = EX_11.replace('points="-1"', 'points="0"').replace('x="6" y="6"', 'x="6" y="5"');
const JIGO = EX_11.replace('points="-1"', 'points="5"').replace('points="0"', 'points="5"').replace('<move playerId="0"/></Body>', '<move playerId="0"/><move playerId="1"/></Body>');
const SHOUTED = UNFINISHED.replace('name="Anna"', 'name="ANNA"').replace('Vereinsabend', 'Turnier').replace('x="6" y="5"', 'x="5" y="5"');

describe('players and their statistics', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive();
    for (const text of [example('1.1'), example('1.2'), example('2.1'), example('2.2'), UNFINISHED, JIGO, SHOUTED]) {
      const response = await post(archive, '/games', text, { 'Content-Type': 'application/xml' });
      expect(response.status).toBe(201);
    }
  });
  afterAll(async () => {
    await archive.close();
  });

  const get = async (path: string) => {
    const response = await fetch(`${archive.baseUrl}${path}`);
    return { status: response.status, body: await response.json() };
  };

  it("counts a player's games won, lost, drawn and unfinished, overall and per family, with names folded", async () => {
    const { status, body } = await get('/players/anna');
    expect(status).toBe(200);
    // Four resignations lost, one unfinished (and its shouted twin), one jigo.
    // Seven files, six games: examples 1.1 and 1.2 hold the same one.
    const anna = { played: 6, won: 0, lost: 3, drawn: 1, unfinished: 2, unknown: 0 };
    expect(body).toMatchObject({ key: 'anna', overall: anna, byFamily: [{ family: 'go', ...anna }] });
    expect([...body.names].sort()).toEqual(['ANNA', 'Anna']);
    const bernd = await get('/players/bernd');
    expect(bernd.body.overall).toEqual({ played: 6, won: 3, lost: 0, drawn: 1, unfinished: 2, unknown: 0 });
  });

  it('finds players by a part of their name, and short parts only as whole names', async () => {
    const found = await get('/players?name=ANN');
    expect(found.body.items).toEqual([{ key: 'anna', name: expect.stringMatching(/^(ANNA|Anna)$/), games: 7 }]);
    expect(found.body.next).toBeNull();
    expect((await get('/players?name=an')).body.items).toEqual([]);
    expect((await get('/players?name=nd')).body.items).toEqual([]);
    const games = await get('/games?player=an');
    expect(games.body.items).toEqual([]);
    expect((await get('/games?player=bernd')).body.items).toHaveLength(7);
  });

  it("lists a player's games newest first with the player's outcome, page by page", async () => {
    const first = await get('/players/anna/games?limit=4');
    expect(first.body.items.map((game: { outcome: string }) => game.outcome)).toEqual(['unfinished', 'drawn', 'unfinished', 'lost']);
    expect(first.body.items.every((game: { family: string; seat: number }) => game.family === 'go' && game.seat === 0)).toBe(true);
    const rest = await get(`/players/anna/games?limit=4&before=${first.body.next}`);
    expect(rest.body.items.map((game: { outcome: string }) => game.outcome)).toEqual(['lost', 'lost', 'lost']);
    expect(rest.body.next).toBeNull();
  });

  it('searches games by winner', async () => {
    // Bernd won the four games Anna resigned; nobody won the unfinished games or the jigo.
    expect((await get('/games?winner=bernd')).body.items).toHaveLength(4);
    expect((await get('/games?winner=anna')).body.items).toEqual([]);
    expect((await get('/games?winner=bernd&player=anna')).body.items).toHaveLength(4);
  });

  it('answers a player no game has with 404 player.not_found', async () => {
    const { status, body } = await get('/players/nobody');
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'player.not_found' });
  });
});
