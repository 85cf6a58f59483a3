import { jest } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { DataSource } from 'typeorm';
import { GamesExportRepository } from '../../src/games/games-export.repository.js';
import { manifestOf, untar, unzip } from '../support/archive-entries.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * GET and POST /games/export: many games in one streamed download. What each export must hold is
 * taken from elsewhere — the search's own page, each game's GET /games/{id} and /raw answers, the
 * SHA-256 of those bytes computed here, zip and tar read back by yauzl and tar-stream's extractor,
 * collections read back by the archive's upload of a multi-game file and by @sabaki/sgf.
 */
const require = createRequire(import.meta.url);
const sabaki = require('@sabaki/sgf') as { parse(text: string): unknown[] };
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));
const GNUGO = 'fixtures/realdata/go/gnugo_regression_games';
// A game in the Fox client's shape (CA[UTF-8], Chinese names, KM[650]), written for the tests: the Fox
// games themselves may not be copied into the project.
const FOX_LIKE = 'fixtures/written/fox-like/hundredths-650.sgf';

interface Game {
  id: number;
  family: string | null;
  publisher: string | null;
  version: string | null;
  moveCount: number | null;
  filename: string | null;
  players: { name: string | null }[];
}

describe('bulk exports', () => {
  let archive: TestArchive;
  let db: DataSource;
  const go: Game[] = [];
  let passwd: Game;
  let gofans: Game;
  let bars: Game;
  let hostile: Game;
  let foxLike: Game;
  let pdnGames: number[];

  const upload = async (bytes: Buffer | string, filename: string): Promise<Game> => {
    const response = await post(archive, `/games?filename=${encodeURIComponent(filename)}`, typeof bytes === 'string' ? Buffer.from(bytes) : bytes, { 'Content-Type': 'application/octet-stream' });
    expect(response.status).toBe(201);
    return response.json();
  };
  const uploadCollection = async (bytes: Buffer, filename: string) => {
    const response = await post(archive, `/uploads?filename=${filename}`, bytes, { 'Content-Type': 'application/octet-stream' });
    expect([200, 201]).toContain(response.status);
    return (await response.json()) as { games: { outcome: string; gameId: number | null }[] };
  };
  const get = (path: string, accept?: string) => fetch(`${archive.baseUrl}${path}`, accept ? { headers: { Accept: accept } } : undefined);
  const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());
  const lines = async (response: Response) => (await response.text()).trim().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, any>);
  const rawOf = async (id: number) => bytesOf(await get(`/games/${id}/raw`));

  beforeAll(async () => {
    archive = await startArchive();
    db = archive.app.get<DataSource>(getDataSourceToken());
    go.push(await upload(fixture(`${GNUGO}/9x9-1.sgf`), '9x9-1.sgf'));
    passwd = await upload(fixture(`${GNUGO}/9x9-2.sgf`), '../../etc/passwd');
    go.push(passwd);
    gofans = await upload(fixture('fixtures/gofans-examples/ex_2.2.xml'), 'ex_2.2.xml');
    go.push(gofans);
    hostile = await upload(fixture(`${GNUGO}/9x9-3.sgf`), 'hostile.sgf');
    go.push(hostile);
    foxLike = await upload(fixture(FOX_LIKE), 'hundredths-650.sgf');
    go.push(foxLike);
    await upload(fixture('formats/plugins/vk-dots/fixtures/full-game.txt'), 'vk.txt');
    bars = await upload(fixture('e2e/fixtures/demonstration.bars'), 'demo.bars');
    const abatsiev = await uploadCollection(fixture('fixtures/realdata/checkers/russian/abatsiev.pdn'), 'abatsiev.pdn');
    pdnGames = abatsiev.games.filter((game) => game.outcome === 'indexed').map((game) => game.gameId!);
    // A file name stored before the archive refused control characters: a bell, an escape sequence, a right-to-left override.
    await db.query(`UPDATE games SET filename = $2 WHERE id = $1`, [hostile.id, 'bell\u0007\u001b[31m\u202eevil/../x.sgf']);
  });
  afterAll(async () => {
    await archive.close();
  });

  it('writes the games of a filtered search as NDJSON, each line what GET /games/{id} answers', async () => {
    const page = (await (await get('/games?family=go&limit=100')).json()) as { items: Game[] };
    expect(page.items).toHaveLength(go.length);
    const answer = await get('/games/export?family=go', 'application/x-ndjson');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson');
    expect(answer.headers.get('content-disposition')).toContain('games.ndjson');
    expect(answer.headers.get('link')).toBeNull();
    const exported = await lines(answer);
    expect(exported.map((game) => game.id)).toEqual(page.items.map((game) => game.id));
    for (const game of exported) expect(game).toEqual(await (await get(`/games/${game.id}`)).json());
    // NDJSON is the default: no Accept, or */*.
    expect((await lines(await get('/games/export?family=go'))).map((game) => game.id)).toEqual(page.items.map((game) => game.id));
    expect((await lines(await get('/games/export?family=go', '*/*'))).map((game) => game.id)).toEqual(page.items.map((game) => game.id));
  });

  it.each([
    ['application/zip', unzip],
    ['application/x-tar', untar],
  ])('writes %s of the stored bytes, safely named, with a manifest', async (type, read) => {
    const answer = await get('/games/export?family=go&sort=uploaded', type);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(type);
    const entries = await read(await bytesOf(answer));
    expect(entries.map((entry) => entry.name).at(-1)).toBe('manifest.ndjson');
    const files = entries.slice(0, -1);
    expect(files).toHaveLength(go.length);

    // Names worked out by hand from the rules: id, the uploaded name cleaned, the format's extension.
    const names = new Map(files.map((entry) => [entry.name, entry]));
    expect(names.has(`${passwd.id}-etc_passwd.sgf`)).toBe(true);
    expect(names.has(`${go[0].id}-9x9-1.sgf`)).toBe(true);
    expect(names.has(`${gofans.id}-ex_2.2.xml`)).toBe(true);
    expect(names.has(`${hostile.id}-bell[31mevil_._x.sgf`)).toBe(true);
    for (const { name } of files) {
      expect(name).not.toMatch(/[/\\]|\.\.|[\u0000-\u001f\u007f-\u009f\u202e]/);
      expect(name.startsWith('.')).toBe(false);
    }

    const manifest = manifestOf(entries);
    expect(manifest.map((line) => line.name)).toEqual(files.map((entry) => entry.name));
    for (const line of manifest) {
      const game = (await (await get(`/games/${line.id}`)).json()) as Game;
      const raw = await rawOf(line.id);
      expect(names.get(line.name)!.bytes.equals(raw)).toBe(true);
      expect(line.sha256).toBe(createHash('sha256').update(raw).digest('hex'));
      expect(line.size).toBe(raw.length);
      expect([line.publisher, line.version, line.family]).toEqual([game.publisher, game.version, game.family]);
      expect(line.players.map((player: { name: string | null }) => player.name)).toEqual(game.players.map((player) => player.name));
    }
    expect(manifest.find((line) => line.id === hostile.id)!.filename).toBe('bell\u0007\u001b[31m\u202eevil/../x.sgf');
    // The UTF-8 names as the file writes them: PB[山间清风], PW[木鱼AI].
    expect(manifest.find((line) => line.id === foxLike.id)!.players.map((player: { name: string | null }) => player.name)).toEqual(['山间清风', '木鱼AI']);
  });

  it.each(['', 'sort=uploaded', 'uploadedFrom=2000-01-01T00:00:00Z', 'uploadedFrom=2000-01-01T00:00:00Z&sort=uploaded'])(
    'resumes from its cursor exactly where limit stopped (%s)',
    async (order) => {
      const all = (await lines(await get(`/games/export?${order}`))).map((game) => game.id);
      expect(all.length).toBeGreaterThan(60);
      const seen: number[] = [];
      let query = `${order}&limit=25`;
      for (let round = 0; round < 10; round++) {
        const answer = await get(`/games/export?${query}`, 'application/x-ndjson');
        const got = await lines(answer);
        const last = got.at(-1)!;
        if (!('next' in last)) {
          expect(answer.headers.get('link')).toBeNull();
          seen.push(...got.map((game) => game.id));
          break;
        }
        expect(got).toHaveLength(26);
        expect(answer.headers.get('link')).toBe(`</games/export?cursor=${last.next}&limit=25>; rel="next"`);
        seen.push(...got.slice(0, -1).map((game) => game.id));
        query = `cursor=${last.next}&limit=25`;
      }
      expect(seen).toEqual(all);
    },
  );

  it('says where a cut archive goes on in its manifest, and a search cursor continues in an export', async () => {
    const all = (await lines(await get('/games/export?family=go'))).map((game) => game.id);
    const first = manifestOf(await untar(await bytesOf(await get('/games/export?family=go&limit=2', 'application/x-tar'))));
    expect(first.slice(0, 2).map((line) => line.id)).toEqual(all.slice(0, 2));
    const next = first[2].next as string;
    const rest = manifestOf(await unzip(await bytesOf(await get(`/games/export?cursor=${next}`, 'application/zip'))));
    expect(rest.map((line) => line.id)).toEqual(all.slice(2));

    const page = (await (await get('/games?family=go&limit=1')).json()) as { next: string };
    expect((await lines(await get(`/games/export?cursor=${page.next}`))).map((game) => game.id)).toEqual(all.slice(1));
  });

  it('writes Go games as one SGF collection that the archive splits into the same games', async () => {
    const answer = await get('/games/export?family=go&sort=uploaded', 'application/x-go-sgf');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/x-go-sgf');
    const collection = await bytesOf(answer);
    expect(sabaki.parse(collection.toString('utf8'))).toHaveLength(go.length);
    const back = await uploadCollection(collection, 'collection.sgf');
    expect(back.games).toHaveLength(go.length);
    for (const [index, game] of back.games.entries()) {
      const original = go[index];
      const read = (await (await get(`/games/${game.gameId}`)).json()) as Game;
      if (original === gofans) {
        // Converted: a new SGF game with the GoFans game's moves and players.
        expect(game.outcome).toBe('indexed');
        expect([read.publisher, read.version, read.moveCount]).toEqual(['SGF', 'FF4-Go', gofans.moveCount]);
        continue;
      }
      // Written as stored: the game read back is the stored file's game tree, byte for byte (the
      // stored game itself when the file held nothing around its tree).
      expect((await rawOf(original.id)).includes(await rawOf(game.gameId!))).toBe(true);
      expect([read.moveCount, read.players.map((player) => player.name)]).toEqual([original.moveCount, original.players.map((player) => player.name)]);
    }
  });

  it('writes checkers games as one PDN file, BARS converted, and names what it left out', async () => {
    const found = ((await (await get('/games?family=checkers&sort=uploaded&limit=100')).json()) as { items: Game[] }).items.map((game) => game.id);
    expect(found[0]).toBe(bars.id);
    expect(found.slice(1)).toEqual(expect.arrayContaining(pdnGames));
    const collection = await bytesOf(await get('/games/export?family=checkers&sort=uploaded', 'application/x-pdn'));
    const back = await uploadCollection(collection, 'checkers.pdn');
    expect(back.games).toHaveLength(found.length);
    expect(back.games[0].outcome).toBe('indexed');
    // The PDN games went in as stored, each the byte range of the database it came from: the same games again.
    expect(back.games.slice(1).map((game) => game.gameId)).toEqual(found.slice(1));
    expect(back.games.slice(1).every((game) => game.outcome === 'duplicate')).toBe(true);
    const converted = (await (await get(`/games/${back.games[0].gameId}`)).json()) as Game;
    expect([converted.publisher, converted.moveCount]).toEqual(['PDN', bars.moveCount]);

    // By id: the Go game and the unknown id are left out, and named in a PDN comment after the last game.
    const selected = await post(archive, '/games/export', JSON.stringify({ ids: [bars.id, go[0].id, 987654321], family: 'checkers' }), {
      'Content-Type': 'application/json',
      Accept: 'application/x-pdn',
    });
    expect(selected.status).toBe(200);
    const text = await selected.text();
    const note = text.slice(text.lastIndexOf('{'));
    expect(note).toContain(`game ${go[0].id}: it is a go game`);
    expect(note).toContain('game 987654321: there is no such game');
    expect((await uploadCollection(Buffer.from(text), 'selected.pdn')).games).toHaveLength(1);
  });

  it('refuses a collection without a family, and forms it cannot write', async () => {
    const missing = await get('/games/export', 'application/x-go-sgf');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: 'request.invalid', detail: expect.stringContaining('family') });
    expect((await get('/games/export?family=checkers', 'application/x-go-sgf')).status).toBe(406);
    expect((await get('/games/export?family=peg-solitaire', 'application/x-pdn')).status).toBe(406);
    const json = await get('/games/export', 'application/json');
    expect(json.status).toBe(406);
    expect((await json.json()).code).toBe('request.not_acceptable');
    expect((await get('/games/export?limit=0')).status).toBe(400);
    expect((await get('/games/export?cursor=nonsense')).status).toBe(400);
  });

  it('exports the games named by id, in the order named, listing ids that name none', async () => {
    const body = JSON.stringify({ ids: [gofans.id, go[0].id, 987654321, gofans.id] });
    const answer = await post(archive, '/games/export', body, { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' });
    expect(answer.status).toBe(200);
    const got = await lines(answer);
    expect(got.map((line) => line.id)).toEqual([gofans.id, go[0].id, 987654321]);
    expect(got[0]).toEqual(await (await get(`/games/${gofans.id}`)).json());
    expect(got[2]).toEqual({ id: 987654321, missing: true });

    const zipped = await post(archive, '/games/export', body, { 'Content-Type': 'application/json', Accept: 'application/zip' });
    const entries = await unzip(await bytesOf(zipped));
    expect(entries.map((entry) => entry.name)).toEqual([`${gofans.id}-ex_2.2.xml`, `${go[0].id}-9x9-1.sgf`, 'manifest.ndjson']);
    expect(entries[0].bytes.equals(await rawOf(gofans.id))).toBe(true);
    expect(manifestOf(entries)[2]).toEqual({ id: 987654321, missing: true });

    const refused = async (text: string) => (await post(archive, '/games/export', text, { 'Content-Type': 'application/json' })).status;
    expect(await refused(JSON.stringify({ ids: Array.from({ length: 10_001 }, (_, i) => i + 1) }))).toBe(400);
    expect(await refused(JSON.stringify({ ids: [] }))).toBe(400);
    expect(await refused(JSON.stringify({ ids: ['1'] }))).toBe(400);
    expect(await refused(JSON.stringify({ ids: [0] }))).toBe(400);
    expect(await refused(JSON.stringify({ ids: [1], extra: true }))).toBe(400);
    expect(await refused(JSON.stringify({ ids: [1], family: 'go' }))).toBe(400);
    expect(await refused('{"ids": [1')).toBe(400);
    expect(await refused('[1, 2]')).toBe(400);
  });

  let seededBulk = false;
  it.each(['application/x-tar', 'application/zip'])('%s: reads no further once the client has gone, and only as fast as the client takes', async (type) => {
    if (!seededBulk) {
      // 300 stored games of 200 kB each (60 MB): far more than the socket buffers hold.
      await db.query(
        `WITH g AS (
           INSERT INTO games (indexed, status_reason, sha256, size, media_type, filename)
           SELECT false, 'bulk test', sha256(convert_to('bulk ' || n, 'UTF8')), 200000, 'application/octet-stream', 'bulk-' || n || '.bin'
           FROM generate_series(1, 300) AS n RETURNING id
         ) INSERT INTO game_files (game_id, raw) SELECT id, convert_to(repeat(id::text || ' ', 40000), 'UTF8')::bytea FROM g`,
      );
      seededBulk = true;
    }
    const repository = archive.app.get(GamesExportRepository);
    const reads = jest.spyOn(repository, 'filesOf');
    try {
      // Plain node:http, not fetch: the harness's spec check would read the whole body first.
      const request = http.get(`${archive.baseUrl}/games/export?status=stored`, { headers: { Accept: type } });
      request.on('error', () => undefined);
      const [response] = (await once(request, 'response')) as [http.IncomingMessage];
      response.on('error', () => undefined);
      expect(response.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // A client that reads nothing holds the export back: a few groups of 4 MB at most were read, not
      // the 15 of the whole (tar only: these bytes deflate to almost nothing in a zip).
      if (type === 'application/x-tar') expect(reads.mock.calls.length).toBeLessThan(8);
      request.destroy();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const afterClose = reads.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(reads.mock.calls.length).toBe(afterClose);
      if (type === 'application/x-tar') expect(afterClose).toBeLessThan(10);
      // The archive goes on answering.
      expect((await get('/health')).status).toBe(200);
    } finally {
      reads.mockRestore();
    }
  });
});
