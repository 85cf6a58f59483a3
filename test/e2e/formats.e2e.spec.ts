import { readFileSync } from 'node:fs';
import { getGame, listFormats, regenerateGame, replayGame, searchGames, uploadGame } from '../client/generated/sdk.gen.js';
import type { GameDto } from '../client/generated/types.gen.js';
import { startArchive, TestArchive } from './archive-harness.js';

/**
 * Every format end to end through the generated client: upload real files, read the index,
 * regenerate, replay, download, search.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));

describe('formats through the archive', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive();
  });
  afterAll(async () => {
    await archive.close();
  });

  async function upload(bytes: Buffer, filename: string, mediaType = 'application/octet-stream'): Promise<GameDto> {
    const { data } = await uploadGame({
      client: archive.client,
      body: new Blob([new Uint8Array(bytes)]),
      headers: { 'Content-Type': mediaType },
      query: { filename },
      throwOnError: true,
    });
    return data;
  }

  async function regenerated(id: number): Promise<Buffer> {
    const { data } = await regenerateGame({ client: archive.client, path: { id }, parseAs: 'blob', throwOnError: true });
    return Buffer.from(await data.arrayBuffer());
  }

  async function download(id: number): Promise<Buffer> {
    return Buffer.from(await (await fetch(`${archive.baseUrl}/games/${id}/raw`)).arrayBuffer());
  }

  describe('GoFans XML', () => {
    it.each([
      ['1.1', '2.1'],
      ['1.2', '2.2'],
      ['2.1', '2.1'],
      ['2.2', '2.2'],
    ])('indexes the %s example, regenerates it as %s, and the regenerated file reads back consistent', async (version, regeneratedVersion) => {
      const bytes = fixture(`fixtures/gofans-examples/ex_${version}.xml`);
      const game = await upload(bytes, `ex_${version}.xml`, 'application/xml');
      expect(game).toMatchObject({ publisher: 'GoFans', version, family: 'go', status: 'indexed' });
      expect(game.players.length).toBeGreaterThanOrEqual(2);
      expect(game.verdict?.legal).toBe(true);
      expect(game.header).toContain('<players>');
      expect(await download(game.id)).toEqual(bytes);

      const rewritten = await regenerated(game.id);
      expect(rewritten.toString('utf8')).toContain(`<Version>${regeneratedVersion}</Version>`);
      const reread = await upload(rewritten, `regenerated_${version}.xml`, 'application/xml');
      expect(reread).toMatchObject({ version: regeneratedVersion, status: 'indexed', moveCount: game.moveCount });
      expect(reread.verdict).toMatchObject({ legal: true, consistent: true });

      const { data: replay } = await replayGame({ client: archive.client, path: { id: game.id }, throwOnError: true });
      expect(replay.plies.length).toBe(game.moveCount);
    });

    it('stores a Standard XML file of an unknown publisher verbatim, with its Publisher/Version/Header/Body', async () => {
      const xml = '<?xml version="1.0"?>\n<Game><Publisher>Elsewhere</Publisher><Version>9</Version><Header><x/></Header><Body><y/></Body></Game>\n';
      const game = await upload(Buffer.from(xml), 'elsewhere.xml', 'application/xml');
      expect(game).toMatchObject({ publisher: 'Elsewhere', version: '9', status: 'stored', family: null });
      expect(game.statusReason).toBeTruthy();
      expect(game.header).toContain('<x/>');
      expect(game.body).toContain('<y/>');
    });

    it('serves the version schemas and Standard.xsd from the format index', async () => {
      const { data } = await listFormats({ client: archive.client, throwOnError: true });
      const gofans = data.formats.filter((format) => format.publisher === 'GoFans');
      expect(gofans.map((format) => format.version).sort()).toEqual(['1.1', '1.2', '2.1', '2.2']);
      for (const format of gofans) {
        const schema = await fetch(`${archive.baseUrl}${format.schemaUrl}`);
        expect(schema.status).toBe(200);
        expect(await schema.text()).toContain('http://www.w3.org/2001/XMLSchema');
      }
      expect(data.sharedSchemaUrls.some((url) => url.endsWith('/Standard.xsd'))).toBe(true);
      expect((await fetch(`${archive.baseUrl}/formats/schemas/Standard.xsd`)).status).toBe(200);
    });
  });

  describe('VK Dots', () => {
    it('regenerates the seed game byte for byte and indexes both players', async () => {
      const bytes = fixture('formats/vk-dots/fixtures/full-game.txt');
      const game = await upload(bytes, 'full-game.txt', 'text/plain; charset=utf-8');
      expect(game).toMatchObject({ family: 'dots', status: 'indexed', verdict: { legal: true, consistent: true } });
      expect(game.players.map((player) => [player.externalId, player.name, player.color])).toEqual([
        ['22029176', 'For You', 'red'],
        ['17047038', 'Павел Слепнев', 'blue'],
      ]);
      expect(await regenerated(game.id)).toEqual(bytes);
    });

    it('regenerates the bare game code byte for byte', async () => {
      const bytes = fixture('formats/vk-dots/fixtures/bare-code.txt');
      const game = await upload(bytes, 'bare-code.txt', 'text/plain');
      expect(game).toMatchObject({ family: 'dots', status: 'indexed' });
      expect(await regenerated(game.id)).toEqual(bytes);
    });

    it('says a file with a wrong cached score is inconsistent, and search finds it', async () => {
      const original = fixture('formats/vk-dots/fixtures/full-game.txt').toString('utf8');
      const tampered = original.replace('#0@1#', '#0@2#');
      expect(tampered).not.toBe(original);
      const game = await upload(Buffer.from(tampered), 'tampered.txt', 'text/plain');
      expect(game.verdict).toMatchObject({ consistent: false });
      expect(game.verdict?.problems[0].ply).toBeGreaterThan(0);

      const { data } = await searchGames({ client: archive.client, query: { family: 'dots', consistent: false }, throwOnError: true });
      expect(data.items.map((item) => item.id)).toContain(game.id);
      expect(data.items.every((item) => item.verdict?.consistent === false)).toBe(true);
      for (const player of ['павел', 'ПАВЕЛ СЛЕП', 'Слепнев']) {
        const byPlayer = await searchGames({ client: archive.client, query: { player }, throwOnError: true });
        expect(byPlayer.data.items.map((item) => item.id)).toContain(game.id);
      }
      const nobody = await searchGames({ client: archive.client, query: { player: 'павла' }, throwOnError: true });
      expect(nobody.data.items.map((item) => item.id)).not.toContain(game.id);
    });
  });

  describe('Dots server board state (response 204)', () => {
    it('indexes the position and regenerates the scores from the board', async () => {
      const bytes = fixture('e2e/fixtures/board-state.204');
      const game = await upload(bytes, 'board-state.204', 'text/plain');
      expect(game).toMatchObject({ family: 'dots', status: 'indexed', verdict: { consistent: true } });
      expect(game.players.map((player) => player.points)).toEqual([1, 0]);
      expect(await regenerated(game.id)).toEqual(bytes);

      const wrong = await upload(Buffer.from(bytes.toString('utf8').replace('SCR 1 0', 'SCR 0 0')), 'wrong.204', 'text/plain');
      expect(wrong.verdict).toMatchObject({ consistent: false });
      expect(await regenerated(wrong.id)).toEqual(bytes);
    });
  });

  describe('BARS checkers', () => {
    it("replays the datasheet's demonstration game: legal, consistent, white took 4 and black 2", async () => {
      const game = await upload(fixture('e2e/fixtures/demonstration.bars'), 'demonstration.bars', 'text/plain');
      expect(game).toMatchObject({ publisher: 'BARS', family: 'checkers', status: 'indexed', moveCount: 10 });
      expect(game.verdict).toMatchObject({ legal: true, consistent: true });
      expect(game.players.map((player) => player.captures)).toEqual([4, 2]);
      const { data: replay } = await replayGame({ client: archive.client, path: { id: game.id }, throwOnError: true });
      expect(replay.plies[6].move).toBe('b4:d6:f8');
      expect(await regenerated(game.id)).toBeDefined();
    });
  });

  describe('ViaThinkSoft peg solitaire', () => {
    it('indexes a real version-2 board, solves it, and regenerates a board that reads back the same', async () => {
      const bytes = fixture('fixtures/realdata/peg/v2_head/6x6 Square.brd');
      const game = await upload(bytes, '6x6 Square.brd', 'text/plain');
      expect(game).toMatchObject({ publisher: 'ViaThinkSoft Peg Solitaire', version: '2', family: 'peg-solitaire', status: 'indexed' });
      expect(['yes', 'no', 'unknown']).toContain(game.details?.solvable);
      const reread = await upload(await regenerated(game.id), 'regenerated.brd', 'text/plain');
      // The canonical form of a canonical board is itself: same bytes, so the archive answers with the stored game.
      const again = await upload(await regenerated(reread.id), 'regenerated-again.brd', 'text/plain');
      expect(again.id).toBe(reread.id);
      expect(reread.details).toMatchObject({ width: game.details?.width, height: game.details?.height });
    });
  });

  it("keeps the uploader's media type, and names the format's when the upload's said nothing", async () => {
    const xml = fixture('fixtures/gofans-examples/ex_2.1.xml').toString('utf8');
    const cases: [string, string, string][] = [
      ['application/x-www-form-urlencoded', 'A', 'application/xml'],
      ['application/octet-stream', 'B', 'application/xml'],
      ['text/xml; charset=utf-8', 'C', 'text/xml; charset=utf-8'],
    ];
    for (const [declared, mark, kept] of cases) {
      const bytes = Buffer.from(xml.replace('name="Anna"', `name="Anna ${mark}"`));
      const game = await upload(bytes, `media-${mark}.xml`, declared);
      expect(game.mediaType).toBe(kept);
      const raw = await fetch(`${archive.baseUrl}/games/${game.id}/raw`);
      expect(raw.headers.get('content-type')).toContain(kept.split(';')[0]);
      expect(Buffer.from(await raw.arrayBuffer())).toEqual(bytes);
    }
    const vkBytes = Buffer.from(fixture('formats/vk-dots/fixtures/full-game.txt').toString('utf8').replace('For You', 'For You Too'));
    const vk = await upload(vkBytes, 'full-game.txt', 'application/x-www-form-urlencoded');
    expect(vk).toMatchObject({ publisher: 'VK Dots', status: 'indexed' });
    expect(vk.mediaType).toBe('text/plain; charset=utf-8');
    const unknown = await upload(Buffer.from(`notes ${Date.now()}\n`), 'notes.txt', 'application/x-www-form-urlencoded');
    expect(unknown).toMatchObject({ status: 'stored', mediaType: 'application/octet-stream' });
  });

  it('searches by family and publisher across formats', async () => {
    const go = await searchGames({ client: archive.client, query: { family: 'go', limit: 100 }, throwOnError: true });
    expect(go.data.items.length).toBeGreaterThan(0);
    expect(go.data.items.every((item) => item.family === 'go')).toBe(true);
    const bars = await searchGames({ client: archive.client, query: { publisher: 'BARS' }, throwOnError: true });
    expect(bars.data.items.every((item) => item.publisher === 'BARS')).toBe(true);
    const one = await getGame({ client: archive.client, path: { id: bars.data.items[0].id }, throwOnError: true });
    expect(one.data.body).toContain('156');
  });
});
