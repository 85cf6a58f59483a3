import { deleteGame, downloadGame, getGame, health, listFormats, regenerateGame, replayGame, searchGames, uploadGame } from '../client/generated/sdk.gen.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

const PROBLEM_JSON = 'application/problem+json';

describe('the archive over HTTP (foundation)', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive({ MAX_UPLOAD_BYTES: '4096' });
  });
  afterAll(async () => {
    await archive.close();
  });

  const totalGames = async (): Promise<number> => {
    let count = 0;
    let cursor: string | undefined;
    do {
      const { data } = await searchGames({ client: archive.client, query: { limit: 100, cursor }, throwOnError: true });
      count += data.items.length;
      cursor = data.next ?? undefined;
    } while (cursor);
    return count;
  };

  it('stores an unrecognised text file verbatim and says why it is not indexed', async () => {
    const bytes = new TextEncoder().encode('Партия: notes only\r\nline two\n');
    const { data, response } = await uploadGame({
      client: archive.client,
      body: new Blob([bytes]),
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      query: { filename: 'notes.txt' },
      throwOnError: true,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/games/${data.id}`);
    expect(data).toMatchObject({ status: 'stored', family: null, size: bytes.length, filename: 'notes.txt', verdict: null });
    expect(data.statusReason).toMatch(/no format plugin recognises/);

    const download = await fetch(`${archive.baseUrl}/games/${data.id}/raw`);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    expect(download.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(download.headers.get('content-disposition')).toContain('notes.txt');
    expect(download.headers.get('etag')).toBe(`"${data.sha256}"`);

    const again = await fetch(`${archive.baseUrl}/games/${data.id}/raw`, { headers: { 'If-None-Match': `"${data.sha256}"` } });
    expect(again.status).toBe(304);
  });

  it('keeps multipart uploads with their filename and media type, byte for byte', async () => {
    const bytes = new Uint8Array([0x67, 0x6f, 0x0d, 0x0a, 0xd0, 0x9f, 0x0a, 0x09, 0x7e]);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'text/x-notes' }), 'game record.txt');
    const response = await post(archive, '/games', form);
    expect(response.status).toBe(201);
    const game = await response.json();
    expect(game).toMatchObject({ filename: 'game record.txt', mediaType: 'text/x-notes', size: bytes.length });

    const { data } = await downloadGame({ client: archive.client, path: { id: game.id }, parseAs: 'blob', throwOnError: true });
    expect(new Uint8Array(await data.arrayBuffer())).toEqual(bytes);
  });

  it('answers 200 with the existing game when the same bytes come again, also when uploads race', async () => {
    const body = `race ${Date.now()}\n`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(archive, '/games', body, { 'Content-Type': 'text/plain' })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const ids = new Set(await Promise.all(answers.map(async (answer) => (await answer.json()).id)));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    const { data } = await getGame({ client: archive.client, path: { id }, throwOnError: true });
    expect(data.size).toBe(Buffer.byteLength(body));
  });

  describe('refuses bad input with problem+json, stores nothing, and keeps serving', () => {
    // Every row has all five cells: jest passes `done` in place of a missing trailing argument.
    const cases: [string, BodyInit, number, RegExp, Record<string, unknown> | null][] = [
      ['an empty body', '', 422, /empty/, null],
      ['binary junk', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe]), 415, /binary/, { offset: 4 }],
      ['text in the wrong encoding (cp1251)', new Uint8Array([0x31, 0x2e, 0x30, 0x0a, 0xcf, 0xe0, 0xe2, 0xe5, 0xeb]), 422, /not valid UTF-8/, { offset: 4 }],
      [
        'an XML entity bomb',
        '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<lolz>&lol2;</lolz>',
        422,
        /document type and entity declarations/,
        { line: 2, column: 1 },
      ],
      [
        'an XML external entity',
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>',
        422,
        /document type/,
        { line: 1 },
      ],
      ['truncated XML', '<?xml version="1.0"?>\n<notes>\n  <note>unfinished', 422, /not well-formed/, { line: 3 }],
      ['a file over MAX_UPLOAD_BYTES', 'x'.repeat(5000), 413, /larger than the limit of 4096 bytes/, null],
    ];

    it.each(cases)('%s', async (_name, body, status, detail, location) => {
      const before = await totalGames();
      const answer = await post(archive, '/games', body, { 'Content-Type': 'application/octet-stream' });
      expect(answer.status).toBe(status);
      expect(answer.headers.get('content-type')).toContain(PROBLEM_JSON);
      const problem = await answer.json();
      expect(problem).toMatchObject({ status, title: expect.any(String) });
      expect(problem.detail).toMatch(detail);
      if (location) expect(problem.errors[0]).toMatchObject(location);
      expect(await totalGames()).toBe(before);
      expect((await health({ client: archive.client })).data).toEqual({ status: 'ok' });
    });

    it('an over-limit multipart upload', async () => {
      const form = new FormData();
      form.append('file', new Blob(['y'.repeat(5000)]), 'big.txt');
      const answer = await post(archive, '/games', form);
      expect(answer.status).toBe(413);
      expect(answer.headers.get('content-type')).toContain(PROBLEM_JSON);
    });

    it('a multipart upload without the field "file"', async () => {
      const form = new FormData();
      form.append('document', new Blob(['notes']), 'notes.txt');
      const answer = await post(archive, '/games', form);
      expect(answer.status).toBe(400);
      expect((await answer.json()).detail).toMatch(/"file"/);
    });

    it('an unknown ?format', async () => {
      const answer = await post(archive, '/games?format=Nobody/9', 'text', { 'Content-Type': 'text/plain' });
      expect(answer.status).toBe(400);
      expect((await answer.json()).detail).toMatch(/unknown format "Nobody\/9"/);
    });
  });

  it('rejects unknown query parameters, bad values and bad cursors with 400', async () => {
    for (const query of ['colour=red', 'limit=0', 'limit=101', 'consistent=maybe', 'family=chess', 'uploadedFrom=yesterday', 'cursor=not-a-cursor']) {
      const answer = await fetch(`${archive.baseUrl}/games?${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.headers.get('content-type')).toContain(PROBLEM_JSON);
    }
    expect((await fetch(`${archive.baseUrl}/games/abc`)).status).toBe(400);
  });

  it('pages newest first with keyset cursors, without gaps or repeats', async () => {
    const uploaded: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await post(archive, '/games', `page test ${i} ${Date.now()}`, { 'Content-Type': 'text/plain' });
      uploaded.push((await answer.json()).id);
    }
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const { data } = await searchGames({ client: archive.client, query: { limit: 2, cursor }, throwOnError: true });
      expect(data.items.length).toBeLessThanOrEqual(2);
      seen.push(...data.items.map((item) => item.id));
      cursor = data.next ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 5)).toEqual([...uploaded].reverse());
  });

  it('filters by upload time', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const answer = await post(archive, '/games', `time filter ${Date.now()}`, { 'Content-Type': 'text/plain' });
    const { id } = await answer.json();
    const after = new Date(Date.now() + 1000).toISOString();
    const inside = await searchGames({ client: archive.client, query: { uploadedFrom: before, uploadedTo: after }, throwOnError: true });
    expect(inside.data.items.map((item) => item.id)).toContain(id);
    const later = await searchGames({ client: archive.client, query: { uploadedFrom: after }, throwOnError: true });
    expect(later.data.items).toEqual([]);
  });

  it('answers 404 and 409 as problem+json', async () => {
    const missing = await getGame({ client: archive.client, path: { id: 999999 } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ status: 404, detail: 'there is no game 999999' });

    const stored = await (await post(archive, '/games', `stored only ${Date.now()}`, { 'Content-Type': 'text/plain' })).json();
    expect((await regenerateGame({ client: archive.client, path: { id: stored.id } })).response.status).toBe(409);
    expect((await replayGame({ client: archive.client, path: { id: stored.id } })).response.status).toBe(409);
  });

  it('deletes a game with everything that belongs to it', async () => {
    const game = await (await post(archive, '/games', `to delete ${Date.now()}`, { 'Content-Type': 'text/plain' })).json();
    const deleted = await deleteGame({ client: archive.client, path: { id: game.id } });
    expect(deleted.response.status).toBe(204);
    expect((await getGame({ client: archive.client, path: { id: game.id } })).response.status).toBe(404);
    expect((await deleteGame({ client: archive.client, path: { id: game.id } })).response.status).toBe(404);
  });

  it('lists the formats it reads, each with a family and media types', async () => {
    const { data } = await listFormats({ client: archive.client, throwOnError: true });
    for (const format of data.formats) {
      expect(format.mediaTypes.length).toBeGreaterThan(0);
      expect(['go', 'dots', 'checkers', 'peg-solitaire']).toContain(format.family);
      if (format.schemaUrl) expect((await fetch(`${archive.baseUrl}${format.schemaUrl}`)).status).toBe(200);
    }
    expect((await fetch(`${archive.baseUrl}/formats/Nobody/1/schema`)).status).toBe(404);
  });

  it('serves Swagger UI and the OpenAPI document', async () => {
    expect((await fetch(`${archive.baseUrl}/docs`)).status).toBe(200);
    const document = await (await fetch(`${archive.baseUrl}/docs/openapi.json`)).json();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/games', '/games/{id}/raw', '/formats']));
  });
});

describe('API keys', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive({ API_KEYS: 'first-key, second-key' });
  });
  afterAll(async () => {
    await archive.close();
  });

  it('need a key to upload and delete, and keep reads public', async () => {
    const anonymous = await post(archive, '/games', 'keyed upload', { 'Content-Type': 'text/plain' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(anonymous.headers.get('content-type')).toContain(PROBLEM_JSON);

    const wrong = await post(archive, '/games', 'keyed upload', { 'Content-Type': 'text/plain', Authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);

    const accepted = await uploadGame({
      client: archive.client,
      auth: 'second-key',
      body: new Blob(['keyed upload']),
      headers: { 'Content-Type': 'text/plain' },
      throwOnError: true,
    });
    expect(accepted.response.status).toBe(201);

    expect((await getGame({ client: archive.client, path: { id: accepted.data.id } })).response.status).toBe(200);
    expect((await deleteGame({ client: archive.client, path: { id: accepted.data.id } })).response.status).toBe(401);
    expect((await deleteGame({ client: archive.client, path: { id: accepted.data.id }, auth: 'first-key' })).response.status).toBe(204);
  });
});
