import { readFileSync } from 'node:fs';
import { getGame, listFormats, regenerateGame, replayGame, searchGames, uploadGame } from '../client/generated/sdk.gen.js';
import type { GameDto } from '../client/generated/types.gen.js';
import { startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * Every format end to end through the generated client: upload real files, read the index,
 * regenerate, replay, download, search.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));

/**
 * Depth-first search for jumps (orthogonal, over a stone into an empty slot) that leave one stone on
 * a board of `y` stones and `e` holes, remembering positions already found hopeless; the jumps as
 * [from, over, to] cell indices, or null when none clears the board.
 */
function clearToOneStone(rows: readonly string[]): [number, number, number][] | null {
  const width = rows[0].length;
  const height = rows.length;
  const stones = rows.join('').split('').map((cell) => cell === 'y');
  const jumps: [number, number, number][] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const [tx, ty] = [x + 2 * dx, y + 2 * dy];
        if (tx >= 0 && ty >= 0 && tx < width && ty < height) jumps.push([y * width + x, (y + dy) * width + x + dx, ty * width + tx]);
      }
    }
  }
  const hopeless = new Set<string>();
  const search = (left: number): [number, number, number][] | null => {
    if (left === 1) return [];
    const key = stones.map(Number).join('');
    if (hopeless.has(key)) return null;
    for (const jump of jumps) {
      const [from, over, to] = jump;
      if (!stones[from] || !stones[over] || stones[to]) continue;
      stones[from] = stones[over] = false;
      stones[to] = true;
      const rest = search(left - 1);
      stones[from] = stones[over] = true;
      stones[to] = false;
      if (rest) return [jump, ...rest];
    }
    hopeless.add(key);
    return null;
  };
  return search(stones.filter(Boolean).length);
}

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
      // Every example's header lists <player id="0" name="Anna"/> and <player id="1" name="Bernd"/>.
      expect(game.players.map((player) => player.name)).toEqual(['Anna', 'Bernd']);
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
      // Why it was only stored: no format of the archive is the publisher and version the file names.
      expect(game.statusReason).toContain('publisher "Elsewhere" version "9"');
      expect(game.statusReason).toContain('not indexed');
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
      const bytes = fixture('formats/plugins/vk-dots/fixtures/full-game.txt');
      const game = await upload(bytes, 'full-game.txt', 'text/plain; charset=utf-8');
      expect(game).toMatchObject({ family: 'dots', status: 'indexed', verdict: { legal: true, consistent: true } });
      expect(game.players.map((player) => [player.externalId, player.name, player.color])).toEqual([
        ['22029176', 'For You', 'red'],
        ['17047038', 'Павел Слепнев', 'blue'],
      ]);
      expect(await regenerated(game.id)).toEqual(bytes);
    });

    it('regenerates the bare game code byte for byte', async () => {
      const bytes = fixture('formats/plugins/vk-dots/fixtures/bare-code.txt');
      const game = await upload(bytes, 'bare-code.txt', 'text/plain');
      expect(game).toMatchObject({ family: 'dots', status: 'indexed' });
      expect(await regenerated(game.id)).toEqual(bytes);
    });

    it('says a file with a wrong cached score is inconsistent, and search finds it', async () => {
      const original = fixture('formats/plugins/vk-dots/fixtures/full-game.txt').toString('utf8');
      const tampered = original.replace('#0@1#', '#0@2#');
      expect(tampered).not.toBe(original);
      const game = await upload(Buffer.from(tampered), 'tampered.txt', 'text/plain');
      expect(game.verdict).toMatchObject({ consistent: false });
      // The record holding `#0@1#` is the first, after the code's 10th dot (b7 a6 a8 a7 95 b8 a5 b6 c6 c7):
      // right but for its score.
      expect(game.verdict?.problems.map((problem) => [problem.code, problem.ply])).toEqual([['cache.points', 10]]);

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
      const bytes = fixture('e2e/fixtures/demonstration.bars');
      const game = await upload(bytes, 'demonstration.bars', 'text/plain');
      expect(game).toMatchObject({ publisher: 'BARS', family: 'checkers', status: 'indexed', moveCount: 10 });
      expect(game.verdict).toMatchObject({ legal: true, consistent: true });
      expect(game.players.map((player) => player.captures)).toEqual([4, 2]);
      const { data: replay } = await replayGame({ client: archive.client, path: { id: game.id }, throwOnError: true });
      expect(replay.plies[6].move).toBe('b4:d6:f8');
      // Regeneration rewrites each move number as the replay derives it and keeps everything else.
      // Every number of the file, decoded by hand (a b c y x: captured, king, colour, row, column),
      // is the mover or captured piece as it stands: 156-145 white man g3-f4; 223-234 black d6-e5;
      // 145 takes 10234 (black man e5), lands 123; 214 takes 10123 (white man d6), lands 232;
      // 152-141; 205-214; 141 takes 10232, lands 123, takes 10214, lands on row 0 as a king 1105;
      // 203-214; the king 1105 takes 10214, lands 1123; 212 takes 11123 (the white king), lands 234.
      // So the file regenerates to itself, byte for byte.
      expect(await regenerated(game.id)).toEqual(bytes);
      // Two numbers written wrong — the crowning landing as a man (105 for 1105) and the captured
      // king as a man (10123 for 11123) — are inconsistent and come back as the datasheet writes them.
      const wrong = Buffer.from(bytes.toString('utf8').replace('10214, 1105]', '10214, 105]').replace('[212, 11123, 234]', '[212, 10123, 234]'));
      expect(wrong.equals(bytes)).toBe(false);
      const wrongGame = await upload(wrong, 'demonstration-wrong.bars', 'text/plain');
      expect(wrongGame.verdict).toMatchObject({ legal: true, consistent: false });
      expect(wrongGame.verdict?.problems.map((problem) => [problem.code, problem.ply])).toEqual([
        ['cache.pieces', 7],
        ['cache.pieces', 10],
      ]);
      expect(await regenerated(wrongGame.id)).toEqual(bytes);
    });
  });

  describe('ViaThinkSoft peg solitaire', () => {
    it('indexes a real version-2 board, solves it (a search written here clears it too), and regenerates it canonically', async () => {
      const bytes = fixture('fixtures/realdata/peg/v2_head/6x6 Square.brd');
      // The board by hand: normal mode, 6x6 slots, stones everywhere but d3 (row 3, column 4), no targets.
      const rows = bytes.toString('latin1').split('\r\n').slice(2).map((row) => row.replace(/ /g, ''));
      expect(rows).toEqual(['yyyyyy', 'yyyyyy', 'yyyeyy', 'yyyyyy', 'yyyyyy', 'yyyyyy']);
      const solution = clearToOneStone(rows);
      expect(solution).toHaveLength(34); // 35 stones, one jump takes one: 34 jumps leave one stone

      const game = await upload(bytes, '6x6 Square.brd', 'text/plain');
      expect(game).toMatchObject({ publisher: 'ViaThinkSoft Peg Solitaire', version: '2', family: 'peg-solitaire', status: 'indexed', moveCount: 34 });
      expect(game.details).toMatchObject({ mode: 'normal', width: 6, height: 6, slots: 36, stoneCount: 35, targets: 0, solvable: 'yes' });
      // Canonical version 2 is the program's own layout (one space between cells, CRLF after every
      // line); the file has it already, but for the line end after its last row.
      const canonical = await regenerated(game.id);
      expect(canonical.toString('latin1')).toBe(`${bytes.toString('latin1')}\r\n`);
      const reread = await upload(canonical, 'regenerated.brd', 'text/plain');
      expect(reread.details).toMatchObject({ width: 6, height: 6, slots: 36, stoneCount: 35, solvable: 'yes' });
      // The canonical form of a canonical board is itself: same bytes, so the archive answers with the stored game.
      expect(await regenerated(reread.id)).toEqual(canonical);
      const again = await upload(await regenerated(reread.id), 'regenerated-again.brd', 'text/plain');
      expect(again.id).toBe(reread.id);
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
    const vkBytes = Buffer.from(fixture('formats/plugins/vk-dots/fixtures/full-game.txt').toString('utf8').replace('For You', 'For You Too'));
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
