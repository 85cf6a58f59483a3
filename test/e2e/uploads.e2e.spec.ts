import { readFileSync } from 'node:fs';
import { getUpload, uploadFile, uploadGame } from '../client/generated/sdk.gen.js';
import type { UploadDto } from '../client/generated/types.gen.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * Files of many games (a PDN database, an SGF collection) kept whole and split into one game per
 * record. Expected values come from the files themselves: PDN games are counted by their `[White`
 * tags, SGF trees located by hand.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));
const USSR_1947 = fixture('fixtures/realdata/checkers/russian/ussr1947.pdn');
const ABATSIEV = fixture('fixtures/realdata/checkers/russian/abatsiev.pdn');

describe('uploads of many games', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive();
  });
  afterAll(async () => {
    await archive.close();
  });

  async function send(bytes: Buffer | string, filename: string): Promise<{ status: number; upload: UploadDto }> {
    const { data, response } = await uploadFile({
      client: archive.client,
      body: new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]),
      headers: { 'Content-Type': 'application/octet-stream' },
      query: { filename },
      throwOnError: true,
    });
    return { status: response.status, upload: data };
  }
  const raw = async (path: string) => Buffer.from(await (await fetch(`${archive.baseUrl}${path}`)).arrayBuffer());
  const json = async (path: string) => (await fetch(`${archive.baseUrl}${path}`)).json();

  it('keeps a PDN database whole and stores each of its 153 games as its own byte range', async () => {
    const { status, upload } = await send(USSR_1947, 'ussr1947.pdn');
    expect(status).toBe(201);
    const whites = [...USSR_1947.toString('utf8').matchAll(/^\[White "([^"]*)"\]/gm)].map((match) => match[1]);
    expect(whites).toHaveLength(153);
    expect(upload.games).toHaveLength(153);
    expect(upload.games.map((game) => game.outcome)).toEqual(Array(153).fill('indexed'));
    expect(await raw(`/uploads/${upload.id}/raw`)).toEqual(USSR_1947);

    // In file order, without overlap, and nothing but blank space left between them.
    let end = 0;
    let between = '';
    for (const game of upload.games) {
      expect(game.start).toBeGreaterThanOrEqual(end);
      between += USSR_1947.subarray(end, game.start).toString('utf8');
      end = game.end;
    }
    between += USSR_1947.subarray(end).toString('utf8');
    expect(between.trim()).toBe('');

    // Each game's bytes are its range of the file, and its players those of its own tags.
    for (const position of [0, 1, 76, 152]) {
      const entry = upload.games[position];
      expect(await raw(`/games/${entry.gameId}/raw`)).toEqual(USSR_1947.subarray(entry.start, entry.end));
      const game = await json(`/games/${entry.gameId}`);
      expect(game.players.find((player: { color: string }) => player.color === 'white').name).toBe(whites[position]);
      expect(game.filename).toBe('ussr1947.pdn');
    }
    const found = await json(`/games?player=${encodeURIComponent('Коршунов')}&limit=100`);
    expect(found.items.map((item: { id: number }) => item.id)).toContain(upload.games[1].gameId);
  });

  it('answers the same file again with the kept upload, changing nothing', async () => {
    const before = (await json('/games?limit=100&filename=ussr1947.pdn')).items.length;
    const again = await send(USSR_1947, 'again.pdn');
    expect(again.status).toBe(200);
    expect(again.upload.filename).toBe('ussr1947.pdn');
    expect((await getUpload({ client: archive.client, path: { id: again.upload.id }, throwOnError: true })).data).toEqual(again.upload);
    expect((await json('/games?limit=100&filename=ussr1947.pdn')).items.length).toBe(before);
    expect((await json('/games?limit=100&filename=again.pdn')).items).toEqual([]);
  });

  it('keeps a game its format cannot replay, marked, and lists every game of the file', async () => {
    const { upload } = await send(ABATSIEV, 'abatsiev.pdn');
    expect(upload.games).toHaveLength([...ABATSIEV.toString('utf8').matchAll(/^\[White\s/gm)].length);
    const thirtySixth = await json(`/games/${upload.games[35].gameId}`);
    expect(thirtySixth.verdict.legal).toBe(false);
  });

  it('splits an SGF collection at its trees, and names a game the archive already has as a duplicate', async () => {
    const first = '(;GM[1]FF[4]SZ[9]PB[Ann]PW[Bob]RE[B+R];B[ee];W[cc])';
    const second = '(;GM[1]FF[4]SZ[9]PB[Cid]PW[Dee]RE[W+R];B[gg])';
    const alone = await uploadGame({ client: archive.client, body: new Blob([second]), headers: { 'Content-Type': 'application/x-go-sgf' }, throwOnError: true });
    const text = `collection\n${first}\n\n${second}\n`;
    const { upload } = await send(text, 'pair.sgf');
    const at = (tree: string) => ({ start: Buffer.byteLength(text.slice(0, text.indexOf(tree))), end: Buffer.byteLength(text.slice(0, text.indexOf(tree) + tree.length)) });
    expect(upload.games).toEqual([
      { position: 0, ...at(first), outcome: 'indexed', gameId: expect.any(Number), sameAs: [] },
      { position: 1, ...at(second), outcome: 'duplicate', gameId: alone.data.id, sameAs: [] },
    ]);
    const game = await json(`/games/${upload.games[0].gameId}`);
    expect(game.moveCount).toBe(2);
    expect(game.players.map((player: { name: string }) => player.name)).toEqual(['Ann', 'Bob']);
  });

  it('stores a game written twice in one file once, the second time as a duplicate of the first', async () => {
    const game = '(;GM[1]FF[4]SZ[9]PB[Eve]PW[Fay]RE[B+R];B[dd];W[ff];B[ee])';
    const other = '(;GM[1]FF[4]SZ[9]PB[Gus]PW[Hal]RE[W+R];B[aa])';
    const text = `${game}\n${other}\n${game}\n`;
    const { upload } = await send(text, 'twice.sgf');
    expect(upload.games.map((entry: { outcome: string }) => entry.outcome)).toEqual(['indexed', 'indexed', 'duplicate']);
    expect(upload.games[2].gameId).toBe(upload.games[0].gameId);
    // Both copies are the same bytes; the game keeps the first copy's range.
    expect(await raw(`/games/${upload.games[0].gameId}/raw`)).toEqual(Buffer.from(game));
    expect(upload.games[0].start).toBe(0);
    expect((await json('/games?limit=100&filename=twice.sgf')).items).toHaveLength(2);
  });

  it('refuses a collection sent as one game, storing nothing', async () => {
    const before = (await json('/games?limit=100')).items.length;
    // The first two games: up to the third game's first tag.
    const third = [...USSR_1947.toString('latin1').matchAll(/^\[White /gm)][2].index;
    const answer = await post(archive, '/games?filename=whole.pdn', USSR_1947.subarray(0, third));
    expect(answer.status).toBe(422);
    const problem = await answer.json();
    expect(problem.code).toBe('upload.collection');
    expect(problem.detail).toMatch(/holds \d+ games.*\/uploads/);
    expect((await json('/games?limit=100')).items.length).toBe(before);
  });

  it('answers unknown uploads and bad ids as problems', async () => {
    const missing = await fetch(`${archive.baseUrl}/uploads/999999`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('upload.not_found');
    expect((await fetch(`${archive.baseUrl}/uploads/abc`)).status).toBe(400);
  });
});
