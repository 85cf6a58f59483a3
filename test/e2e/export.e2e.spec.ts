import { readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * GET /games/{id}/export: a game written in another format of its family. Each converted file is
 * uploaded back and must be read as the same game (players, moves, result), and converted back to
 * its first format it must give the moves it started with.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));

interface Game {
  id: number;
  publisher: string;
  version: string;
  moveCount: number;
  result: string | null;
  players: { name: string | null; outcome: string | null }[];
}

describe('export to another format of the family', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive();
  });
  afterAll(async () => {
    await archive.close();
  });

  const upload = async (bytes: Buffer | string, filename: string): Promise<Game> => {
    const response = await post(archive, `/games?filename=${filename}`, bytes);
    expect([200, 201]).toContain(response.status);
    return response.json();
  };
  const exported = async (id: number, format: string) => fetch(`${archive.baseUrl}/games/${id}/export?format=${encodeURIComponent(format)}`);
  const moves = async (id: number): Promise<string[]> => ((await (await fetch(`${archive.baseUrl}/games/${id}/replay`)).json()) as { plies: { move: string }[] }).plies.map((ply) => ply.move);
  const sameGame = (a: Game, b: Game) => {
    expect(b.moveCount).toBe(a.moveCount);
    expect(b.players.map((player) => [player.name, player.outcome])).toEqual(a.players.map((player) => [player.name, player.outcome]));
  };

  it('writes an SGF game as GoFans and back, to the same moves', async () => {
    const sgf = await upload(fixture('fixtures/realdata/go/gnugo_regression_games/olympiad2006/9x9/gnu-aya.sgf'), 'aya.sgf');
    const answer = await exported(sgf.id, 'GoFans/1.1');
    expect(answer.status).toBe(200);
    const gofans = await upload(Buffer.from(await answer.arrayBuffer()), 'aya.xml');
    expect([gofans.publisher, gofans.version]).toEqual(['GoFans', '1.1']);
    expect(gofans.moveCount).toBe(sgf.moveCount);
    const back = await exported(gofans.id, 'SGF/FF4-Go');
    expect(back.status).toBe(200);
    const again = await upload(Buffer.from(await back.arrayBuffer()), 'aya-again.sgf');
    expect(await moves(again.id)).toEqual(await moves(sgf.id));
  });

  it('writes a VK code as SGF GM[40] and a BARS game as PDN, read back as the same games', async () => {
    const vk = await upload(fixture('formats/plugins/vk-dots/fixtures/full-game.txt'), 'vk.txt');
    const sgf = await exported(vk.id, 'SGF/FF4-Dots');
    expect(sgf.status).toBe(200);
    sameGame(vk, await upload(Buffer.from(await sgf.arrayBuffer()), 'vk.sgf'));

    const bars = await upload(fixture('e2e/fixtures/demonstration.bars'), 'demo.bars');
    const pdn = await exported(bars.id, 'PDN/3.0-Russian');
    expect(pdn.status).toBe(200);
    const read = await upload(Buffer.from(await pdn.arrayBuffer()), 'demo.pdn');
    expect(read.moveCount).toBe(bars.moveCount);
  });

  it('says what does not fit, and refuses other families and unknown formats', async () => {
    // zagram's 39x32 field: a VK code addresses 35x35 at most.
    const large = await upload(fixture('fixtures/realdata/dots/oppai-rs/zagram352562.sgf'), 'large.sgf');
    const misfit = await exported(large.id, 'VK Dots/code');
    expect(misfit.status).toBe(422);
    expect(await misfit.json()).toMatchObject({ code: 'export.does_not_fit', detail: expect.stringMatching(/39|field/) });

    const other = await exported(large.id, 'PDN/3.0-Russian');
    expect(other.status).toBe(422);
    expect((await other.json()).code).toBe('export.unsupported');

    const unknown = await exported(large.id, 'Nobody/9');
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).code).toBe('format.unknown');
    expect((await fetch(`${archive.baseUrl}/games/${large.id}/export`)).status).toBe(400);

    const notes = await upload('just some notes\n', 'notes.txt');
    expect((await exported(notes.id, 'SGF/FF4-Go')).status).toBe(409);
  });
});
