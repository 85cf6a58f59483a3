import { readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * The search fields players ask for beyond names: external ids, file names, move counts, and the
 * upload order both ways, each followed through its cursor. Expected sets are the files uploaded here.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));

describe('search filters and order', () => {
  let archive: TestArchive;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    archive = await startArchive();
    // A VK save file names its players' VK ids on the player lines (22029176 is the seed game's).
    const uploads: [string, Buffer | string][] = [
      ['vk-full.txt', fixture('formats/plugins/vk-dots/fixtures/full-game.txt')],
      ['vk-code.txt', fixture('formats/plugins/vk-dots/fixtures/bare-code.txt')],
      ['demo.bars', fixture('e2e/fixtures/demonstration.bars')],
      ['ex_2.2.xml', fixture('fixtures/gofans-examples/ex_2.2.xml')],
      ['notes.txt', 'only notes\n'],
    ];
    for (const [name, bytes] of uploads) {
      const response = await post(archive, `/games?filename=${name}`, bytes);
      expect(response.status).toBe(201);
      ids[name] = (await response.json()).id;
    }
  });
  afterAll(async () => {
    await archive.close();
  });

  const search = async (query: string): Promise<{ items: { id: number; filename: string; moveCount: number | null }[]; next: string | null }> => {
    const response = await fetch(`${archive.baseUrl}/games?${query}`);
    expect(response.status).toBe(200);
    return response.json();
  };

  it('finds games by a player\'s external id and by file name, exactly', async () => {
    const vk = fixture('formats/plugins/vk-dots/fixtures/full-game.txt').toString('utf8').split(/\r?\n/);
    const externalId = vk[1].split(' ')[0];
    expect((await search(`externalId=${externalId}`)).items.map((game) => game.id)).toEqual([ids['vk-full.txt']]);
    // GoFans player ids are external ids too: the example's Anna is player 0.
    expect((await search('externalId=0')).items.map((game) => game.id)).toEqual([ids['ex_2.2.xml']]);
    expect((await search('externalId=99999999')).items).toEqual([]);
    expect((await search('filename=demo.bars')).items.map((game) => game.id)).toEqual([ids['demo.bars']]);
    expect((await search('filename=demo')).items).toEqual([]);
  });

  it('filters on the move count, from and to', async () => {
    // The BARS demonstration game has 10 plies; the GoFans 2.2 example has 3.
    const tenOrMore = await search('movesMin=10&movesMax=10&family=checkers');
    expect(tenOrMore.items.map((game) => game.id)).toEqual([ids['demo.bars']]);
    const few = await search('movesMax=3');
    expect(few.items.map((game) => game.id)).toContain(ids['ex_2.2.xml']);
    expect(few.items.every((game) => game.moveCount !== null && game.moveCount <= 3)).toBe(true);
    expect((await fetch(`${archive.baseUrl}/games?movesMin=-1`)).status).toBe(400);
  });

  it('sorts by upload time both ways, and the cursor keeps the order', async () => {
    const uploadOrder = ['vk-full.txt', 'vk-code.txt', 'demo.bars', 'ex_2.2.xml', 'notes.txt'].map((name) => ids[name]);
    const walk = async (sort: string) => {
      const seen: number[] = [];
      let page = await search(`sort=${sort}&limit=2`);
      for (;;) {
        seen.push(...page.items.map((game) => game.id));
        if (page.next === null) return seen;
        page = await search(`cursor=${page.next}&limit=2`);
      }
    };
    expect(await walk('uploaded')).toEqual(uploadOrder);
    expect(await walk('-uploaded')).toEqual([...uploadOrder].reverse());
    // Bounded by upload time, the search walks the time index and its cursor carries the time.
    const window = `uploadedFrom=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&uploadedTo=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
    const inWindow = (ids: number[]) => ids.filter((id) => uploadOrder.includes(id));
    expect(inWindow(await walk(`uploaded&${window}`))).toEqual(uploadOrder);
    expect(inWindow(await walk(`-uploaded&${window}`))).toEqual([...uploadOrder].reverse());
    const first = await search('sort=uploaded&limit=1');
    const mixed = await fetch(`${archive.baseUrl}/games?cursor=${first.next}&sort=-uploaded`);
    expect(mixed.status).toBe(400);
  });
});
