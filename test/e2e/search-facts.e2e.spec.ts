import { readFileSync } from 'node:fs';
import { foundIds, post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * Searching by the facts players know a game by: board size, event, the day played, and the order
 * of days. The files are the GoFans examples (9x9, event "Vereinsabend") with a day added by hand,
 * the BARS demonstration game (8x8), a Dots server board of 6x5 points and a 7x4 peg board.
 */
const fixture = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const withDay = (xml: string, day: string) => xml.replace('</players>', `</players><date>${day}</date>`);

describe('search by board size, event and the day played', () => {
  let archive: TestArchive;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    archive = await startArchive();
    const uploads: [string, string][] = [
      ['march', withDay(fixture('fixtures/gofans-examples/ex_1.1.xml'), '2024-03-01')],
      ['november', withDay(fixture('fixtures/gofans-examples/ex_1.2.xml'), '2023-11-05')],
      ['undated', fixture('fixtures/gofans-examples/ex_2.1.xml')],
      ['bars', fixture('e2e/fixtures/demonstration.bars')],
      ['dots', fixture('e2e/fixtures/board-state.204')],
      ['peg', fixture('fixtures/realdata/peg/v2_head/Trapeze.brd')],
    ];
    for (const [name, text] of uploads) {
      const response = await post(archive, `/games?filename=${name}`, text);
      expect(response.status).toBe(201);
      ids[name] = (await response.json()).id;
    }
  });
  afterAll(async () => {
    await archive.close();
  });

  const found = (query: string) => foundIds(archive, query);

  it('gives each game its facts', async () => {
    const game = await (await fetch(`${archive.baseUrl}/games/${ids.march}`)).json();
    // Anna's points="-1" records her resignation: no margin.
    // A game of fewer than 20 moves has no Dyer signature.
    expect(game.facts).toEqual({ boardWidth: 9, boardHeight: 9, datePlayed: '2024-03-01', event: 'Vereinsabend', rules: null, ending: 'resignation', margin: null, signature: null });
  });

  it('finds games by board size, square or width x height', async () => {
    expect(await found('boardSize=9')).toEqual([ids.undated, ids.november, ids.march]);
    expect(await found('boardSize=9x9')).toEqual([ids.undated, ids.november, ids.march]);
    expect(await found('boardSize=8')).toEqual([ids.bars]);
    // GAL rows of six points, five rows; the trapeze is seven holes wide and four high.
    expect(await found('boardSize=6x5')).toEqual([ids.dots]);
    expect(await found('boardSize=7x4')).toEqual([ids.peg]);
    expect(await found('boardSize=4x7')).toEqual([]);
    expect((await fetch(`${archive.baseUrl}/games?boardSize=9x`)).status).toBe(400);
  });

  it('finds games by event, whole and case-insensitively', async () => {
    expect(await found('event=VEREINSABEND')).toEqual([ids.undated, ids.november, ids.march]);
    expect(await found('event=Verein')).toEqual([]);
  });

  it('finds games played within days, and sorts by the day played both ways', async () => {
    expect(await found('playedFrom=2024-01-01')).toEqual([ids.march]);
    expect(await found('playedTo=2023-12-31')).toEqual([ids.november]);
    expect(await found('playedFrom=2023-11-05&playedTo=2024-03-01')).toEqual([ids.november, ids.march].sort((a, b) => b - a));
    expect(await found('sort=played')).toEqual([ids.november, ids.march]);
    expect(await found('sort=-played')).toEqual([ids.march, ids.november]);
    const first = await (await fetch(`${archive.baseUrl}/games?sort=played&limit=1`)).json();
    expect(first.items.map((game: { id: number }) => game.id)).toEqual([ids.november]);
    expect(await found(`cursor=${first.next}`)).toEqual([ids.march]);
    expect((await fetch(`${archive.baseUrl}/games?playedFrom=2024-02-30`)).status).toBe(400);
  });
});
