import { readFileSync } from 'node:fs';
import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database.js';
import { HEAVY_BOARD_TEXT } from '../support/peg-solitaire/boards.js';
import { foundIds, post, startArchive, TestArchive } from '../support/archive-harness.js';

const PROBLEM_JSON = 'application/problem+json';
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));
const BARS = fixture('e2e/fixtures/demonstration.bars');

/** Sends raw bytes over a fresh connection and returns everything the server wrote back. */
function rawExchange(baseUrl: string, request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    socket.write(request);
  });
}

function bodyOf(rawResponse: string): unknown {
  return JSON.parse(rawResponse.slice(rawResponse.indexOf('\r\n\r\n') + 4));
}

async function problemOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get('content-type')).toContain(PROBLEM_JSON);
  return (await response.json()) as Record<string, unknown>;
}

describe('hardening: honest answers to odd and hostile requests', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive();
  });
  afterAll(async () => {
    await archive.close();
  });

  const count = async (): Promise<number> => {
    const response = await fetch(`${archive.baseUrl}/games?limit=100`);
    return ((await response.json()) as { items: unknown[] }).items.length;
  };

  describe('game ids', () => {
    const routes = ['', '/raw', '/replay', '/regenerated'];

    it.each(['0x10', '1e1', '+15', '%2015', '15.0', '-1', '0', '9223372036854775808', 'abc', '%00'])('refuses /games/%s on every route with 400 request.bad_id', async (id) => {
      for (const route of routes) {
        const response = await fetch(`${archive.baseUrl}/games/${id}${route}`);
        expect(response.status).toBe(400);
        expect(await problemOf(response)).toMatchObject({ status: 400, code: 'request.bad_id' });
      }
      const deletion = await fetch(`${archive.baseUrl}/games/${id}`, { method: 'DELETE' });
      expect(deletion.status).toBe(400);
    });

    it('answers the largest bigint id with 404 game.not_found, on every route', async () => {
      for (const route of routes) {
        const response = await fetch(`${archive.baseUrl}/games/9223372036854775807${route}`);
        expect(response.status).toBe(404);
        expect(await problemOf(response)).toMatchObject({ code: 'game.not_found' });
      }
      expect((await fetch(`${archive.baseUrl}/games/9223372036854775807`, { method: 'DELETE' })).status).toBe(404);
    });

    it('refuses a game named in a query past bigint with 400, not a 500 from the database', async () => {
      for (const path of ['/positions/games?game=9999999999999999999&ply=0', '/positions/explorer?game=9223372036854775808&ply=0', '/players/anyone/games?before=9999999999999999999']) {
        const response = await fetch(`${archive.baseUrl}${path}`);
        expect({ path, status: response.status }).toEqual({ path, status: 400 });
        expect(await problemOf(response)).toMatchObject({ code: 'request.invalid', detail: expect.stringMatching(/(game|before) must be a game id/) });
      }
      const reindex = await fetch(`${archive.baseUrl}/reindex?after=9999999999999999999`, { method: 'POST' });
      expect(reindex.status).toBe(400);
      expect(await problemOf(reindex)).toMatchObject({ code: 'request.invalid', detail: expect.stringMatching(/after must be a game id/) });
    });

    it('refuses a cursor holding a day that is none, or moves past an SQL int, as the parameters are refused: 400, the export too', async () => {
      const cursor = (f: Record<string, unknown>) => Buffer.from(JSON.stringify({ v: 1, after: 5, f })).toString('base64url');
      for (const [name, value] of [['playedFrom', '2020-02-31'], ['movesMin', 2 ** 53 - 1]] as const) {
        const parameter = await fetch(`${archive.baseUrl}/games?${name}=${value}`);
        expect({ name, status: parameter.status }).toEqual({ name, status: 400 });
        expect(await problemOf(parameter)).toMatchObject({ code: 'request.invalid' });
        for (const path of ['/games', '/games/export']) {
          const response = await fetch(`${archive.baseUrl}${path}?cursor=${cursor({ [name]: value })}`);
          expect({ path, name, status: response.status }).toEqual({ path, name, status: 400 });
          expect(await problemOf(response)).toMatchObject({ code: 'request.bad_cursor', detail: expect.stringContaining(name) });
        }
      }
    });

    it('reads leading zeros as the same decimal id', async () => {
      const created = await (await post(archive, '/games?filename=zeros.txt', 'leading zeros test\n')).json();
      const response = await fetch(`${archive.baseUrl}/games/000${created.id}`);
      expect(response.status).toBe(200);
      expect((await response.json()).id).toBe(created.id);
    });
  });

  describe('text parameters', () => {
    it.each([
      ['/games?filename=%00.txt', 'POST'],
      ['/games?filename=a%0Ab.txt', 'POST'],
      ['/games?player=%00', 'GET'],
      ['/games?publisher=x%1B', 'GET'],
    ])('refuses %s (%s) with 400 request.control_character and stores nothing', async (path, method) => {
      const before = await count();
      const response = await fetch(`${archive.baseUrl}${path}`, { method, body: method === 'POST' ? 'control character test\n' : undefined });
      expect(response.status).toBe(400);
      expect(await problemOf(response)).toMatchObject({ code: 'request.control_character' });
      expect(await count()).toBe(before);
    });

    it('refuses a control character in a file name from Content-Disposition, and a multipart part header busboy cannot parse', async () => {
      const raw = await post(archive, '/games', 'disposition control test\n', { 'Content-Disposition': "attachment; filename*=UTF-8''a%00b.txt" });
      expect(raw.status).toBe(400);
      expect(await problemOf(raw)).toMatchObject({ code: 'request.control_character' });
      const form = new FormData();
      form.append('file', new Blob(['multipart control test\n']), 'bad\u0007name.txt');
      const multipart = await post(archive, '/games', form);
      expect(multipart.status).toBe(400);
      expect(await problemOf(multipart)).toMatchObject({ code: 'upload.multipart' });
    });
  });

  describe('empty and oddly encoded uploads', () => {
    it.each([
      ['nothing', Buffer.alloc(0)],
      ['a line end', Buffer.from('\n')],
      ['blanks', Buffer.from('  \t \r\n  ')],
      ['a BOM', Buffer.from([0xef, 0xbb, 0xbf])],
      ['a BOM and blanks', Buffer.from([0xef, 0xbb, 0xbf, 0x20, 0x0a])],
      ['a UTF-16 BOM and blanks', Buffer.from([0xff, 0xfe, 0x20, 0x00, 0x0a, 0x00])],
      ['no-break and ideographic spaces', Buffer.from('\u00a0\u3000\n')],
    ])('refuses an upload of %s with 422 upload.empty and stores nothing', async (_name, bytes) => {
      const before = await count();
      const response = await post(archive, '/games', new Uint8Array(bytes));
      expect(response.status).toBe(422);
      expect(await problemOf(response)).toMatchObject({ code: 'upload.empty' });
      expect(await count()).toBe(before);
    });

    it('reads UTF-16 text with a BOM as the same game, keeping the UTF-16 bytes verbatim', async () => {
      const utf8 = await (await post(archive, '/games?filename=demo.bars', BARS)).json();
      for (const [charset, bom] of [
        ['utf-16le', [0xff, 0xfe]],
        ['utf-16be', [0xfe, 0xff]],
      ] as const) {
        const body = Buffer.from(BARS.toString('utf8'), 'utf16le');
        if (charset === 'utf-16be') body.swap16();
        const bytes = Buffer.concat([Buffer.from(bom), body]);
        const response = await post(archive, `/games?filename=demo-${charset}.bars`, bytes);
        expect(response.status).toBe(201);
        const game = await response.json();
        expect(game).toMatchObject({ status: 'indexed', publisher: utf8.publisher, moveCount: utf8.moveCount, result: utf8.result });
        expect(game.players.map((p: { name: string }) => p.name)).toEqual(utf8.players.map((p: { name: string }) => p.name));
        const raw = await fetch(`${archive.baseUrl}/games/${game.id}/raw`);
        expect(Buffer.from(await raw.arrayBuffer())).toEqual(bytes);
        expect(raw.headers.get('content-type')).toBe(`text/plain; charset=${charset}`);
      }
    });

    it('refuses UTF-32 by name', async () => {
      const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00]);
      const response = await post(archive, '/games', bytes);
      expect(response.status).toBe(415);
      const problem = await problemOf(response);
      expect(problem).toMatchObject({ code: 'upload.encoding' });
      expect(problem.detail).toMatch(/UTF-32/);
    });
  });

  describe('request ids', () => {
    it('gives every answer an X-Request-Id, and every problem the same id', async () => {
      const ok = await fetch(`${archive.baseUrl}/health`);
      expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const missing = await fetch(`${archive.baseUrl}/games/999999`);
      const problem = await problemOf(missing);
      expect(problem.requestId).toBe(missing.headers.get('x-request-id'));
      expect(problem).toMatchObject({ code: 'game.not_found', instance: '/games/999999' });
    });

    it("keeps a client's own sane request id and replaces an unsafe one", async () => {
      const kept = await fetch(`${archive.baseUrl}/games/999999`, { headers: { 'X-Request-Id': 'client-42.a:b' } });
      expect(kept.headers.get('x-request-id')).toBe('client-42.a:b');
      expect((await problemOf(kept)).requestId).toBe('client-42.a:b');
      const replaced = await fetch(`${archive.baseUrl}/health`, { headers: { 'X-Request-Id': 'a b<script>' } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers unknown routes with a problem and its code', async () => {
      const response = await fetch(`${archive.baseUrl}/nowhere`);
      expect(response.status).toBe(404);
      expect(await problemOf(response)).toMatchObject({ code: 'resource.not_found' });
    });
  });

  describe('what the HTTP layer refuses', () => {
    it('answers oversized headers with 431 problem+json', async () => {
      const answer = await rawExchange(archive.baseUrl, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(answer).toMatch(/Content-Type: application\/problem\+json/i);
      expect(bodyOf(answer)).toMatchObject({ status: 431, code: 'request.headers_too_large' });
    });

    it('answers bad framing with 400 problem+json', async () => {
      const answer = await rawExchange(archive.baseUrl, 'THIS IS NOT HTTP\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(answer)).toMatchObject({ status: 400, code: 'request.malformed' });
    });

    it('answers a bad Content-Length with 400 problem+json', async () => {
      const answer = await rawExchange(archive.baseUrl, 'POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(answer)).toMatchObject({ code: 'request.malformed' });
    });
  });

  it('answers an upload racing a delete of the same bytes as if one came first, never 404 or 500', async () => {
    for (let round = 0; round < 15; round++) {
      const bytes = `race ${round}\n`;
      const first = await post(archive, '/games', bytes);
      expect(first.status).toBe(201);
      const { id } = await first.json();
      const [deletion, upload] = await Promise.all([fetch(`${archive.baseUrl}/games/${id}`, { method: 'DELETE' }), post(archive, '/games', bytes)]);
      expect(deletion.status).toBe(204);
      expect([200, 201]).toContain(upload.status);
      const game = await upload.json();
      // 200: the upload came first and named the game the delete then removed; 201: stored anew.
      const after = await fetch(`${archive.baseUrl}/games/${game.id}`);
      expect(after.status).toBe(upload.status === 201 ? 200 : 404);
    }
  });

  describe('long header values', () => {
    /** Letters no compressor shrinks much, the same every run: `length` characters of one byte each. */
    const scrambled = (length: number, seed: number): string => {
      let state = seed;
      let text = '';
      for (let i = 0; i < length; i++) {
        state = (state * 1103515245 + 12345) % 2147483648;
        text += String.fromCharCode(97 + (state >> 16) % 26);
      }
      return text;
    };
    const sgf = (property: string, value: string): string =>
      property === 'PB' ? `(;GM[1]FF[4]SZ[9]PB[${value}]PW[White];B[ee];W[cc])` : `(;GM[1]FF[4]SZ[9]PB[Black]PW[White]${property}[${value}];B[ee];W[cc])`;

    it.each(['PB', 'EV', 'BR', 'RU'])('refuses a 2,800-character %s with 422 limit.indexed_text naming the field and the limit, storing nothing', async (property) => {
      const before = await count();
      const response = await post(archive, `/games?filename=long-${property}.sgf`, sgf(property, scrambled(2_800, property.charCodeAt(0))));
      expect(response.status).toBe(422);
      const problem = await problemOf(response);
      expect(problem).toMatchObject({ status: 422, code: 'limit.indexed_text' });
      expect(problem.detail).toMatch(/2,?800 bytes/);
      expect(problem.detail).toMatch(/2,?000/);
      expect(await count()).toBe(before);
    });

    it('stores values of 2,000 bytes and finds the game by each of them', async () => {
      const name = scrambled(2_000, 1);
      const event = scrambled(2_000, 2);
      const rules = scrambled(2_000, 3);
      const rating = scrambled(2_000, 4);
      const response = await post(archive, '/games?filename=long-values.sgf', `(;GM[1]FF[4]SZ[9]PB[${name}]PW[White]BR[${rating}]EV[${event}]RU[${rules}];B[ee];W[cc])`);
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: number };
      const game = (await (await fetch(`${archive.baseUrl}/games/${id}`)).json()) as Record<string, unknown>;
      expect(JSON.stringify(game)).toContain(name);
      expect(JSON.stringify(game)).toContain(event);
      expect(await foundIds(archive, `player=${name.slice(500, 700)}`)).toEqual([id]);
    });
  });

  describe('deeply nested JSON', () => {
    const nested = (levels: number): string => `{"ids":[1],"x":${'['.repeat(levels)}${']'.repeat(levels)}}`;

    it.each([2_000, 100_000])('refuses %d levels of nesting in a POST /games/export body with 400 request.invalid naming the depth', async (levels) => {
      const response = await post(archive, '/games/export', nested(levels), { 'Content-Type': 'application/json' });
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(problem).toMatchObject({ status: 400, code: 'request.invalid' });
      expect(problem.detail).toMatch(/deeper than 64 levels/);
    });

    it('still reads a body with brackets inside its strings, and a normal selection', async () => {
      const created = (await (await post(archive, '/games?filename=nesting.txt', 'nesting test\n')).json()) as { id: number };
      const quoted = await post(archive, '/games/export', `{"ids":[${created.id}],"family":"${'['.repeat(100)}"}`, { 'Content-Type': 'application/json' });
      expect(quoted.status).toBe(400);
      expect((await problemOf(quoted)).detail).not.toMatch(/deeper than/);
      const response = await post(archive, '/games/export', JSON.stringify({ ids: [created.id] }), { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(`"id":${created.id}`);
    });
  });

  it('keeps answering /health while heavy uploads are analysed', async () => {
    const uploads = Array.from({ length: 3 }, (_, i) => post(archive, `/games?filename=heavy-${i}.brd`, HEAVY_BOARD_TEXT + ' '.repeat(i)));
    let settled = false;
    const all = Promise.all(uploads).finally(() => {
      settled = true;
    });
    const health = await fetch(`${archive.baseUrl}/health`);
    expect(health.status).toBe(200);
    // The solver spends its 2 s budget on each board; /health did not wait for any of them.
    expect(settled).toBe(false);
    for (const response of await all) expect(response.status).toBe(201);
  });
});

describe('hardening: rate limits', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive({ RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_WRITES_PER_MINUTE: '2', RATE_LIMIT_EXEMPT_LOOPBACK: 'false' });
  });
  afterAll(async () => {
    await archive.close();
  });

  it('limits writes per client with RateLimit headers, then 429 problem+json with Retry-After', async () => {
    const first = await post(archive, '/games', 'rate limit one\n');
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect((await post(archive, '/games', 'rate limit two\n')).status).toBe(201);
    const refused = await post(archive, '/games', 'rate limit three\n');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await problemOf(refused)).toMatchObject({ status: 429, code: 'request.rate_limited' });
  });

  it('limits reads per client in units of their own, apart from the writes, and never /health', async () => {
    // The writes above spent none of the five units.
    for (let i = 0; i < 3; i++) {
      const health = await fetch(`${archive.baseUrl}/health`);
      expect(health.status).toBe(200);
      expect(health.headers.get('ratelimit-limit')).toBeNull();
    }
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      const read = await fetch(`${archive.baseUrl}/formats`);
      expect(read.status).toBe(200);
      remaining.push(read.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const refused = await fetch(`${archive.baseUrl}/formats`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-limit')).toBe('5');
    expect(await problemOf(refused)).toMatchObject({ code: 'request.rate_limited', detail: expect.stringContaining('units of reads') });
  });
});

describe('hardening: a valid API key has a rate budget of its own', () => {
  let archive: TestArchive;
  const KEY = 'club-key-7f3a';

  beforeAll(async () => {
    archive = await startArchive({
      API_KEYS: `other-key,${KEY}`,
      RATE_LIMIT_PER_MINUTE: '50',
      RATE_LIMIT_WRITES_PER_MINUTE: '1',
      RATE_LIMIT_KEY_PER_MINUTE: '50',
      RATE_LIMIT_KEY_WRITES_PER_MINUTE: '3',
      RATE_LIMIT_EXEMPT_LOOPBACK: 'false',
    });
  });
  afterAll(async () => {
    await archive.close();
  });

  const write = (text: string, authorization?: string) =>
    post(archive, '/games', `${text}\n`, { 'Content-Type': 'text/plain', ...(authorization ? { Authorization: authorization } : {}) });

  it('counts writes with a valid key against the key: three pass where an address gets one, then 429 naming the token', async () => {
    // The address's single write goes first: without a key it is refused for want of one, and counted.
    const anonymous = await write('no key');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ratelimit-limit')).toBe('1');
    const statuses: number[] = [];
    for (const text of ['keyed one', 'keyed two', 'keyed three']) {
      const answer = await write(text, `Bearer ${KEY}`);
      expect(answer.headers.get('ratelimit-limit')).toBe('3');
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([201, 201, 201]);
    const refused = await write('keyed four', `Bearer ${KEY}`);
    expect(refused.status).toBe(429);
    expect(await problemOf(refused)).toMatchObject({ code: 'request.rate_limited', detail: expect.stringContaining('from this token') });
  });

  it('counts a wrong key against the address, whose one write is spent', async () => {
    const refused = await write('wrong key', 'Bearer not-a-key');
    expect(refused.status).toBe(429);
    expect(await problemOf(refused)).toMatchObject({ code: 'request.rate_limited', detail: expect.stringContaining('from this client') });
  });

  it('gives each key its own budget', async () => {
    const answer = await write('the other key', 'Bearer other-key');
    expect(answer.status).toBe(201);
    expect(answer.headers.get('ratelimit-remaining')).toBe('2');
  });
});

describe('hardening: request timeouts', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await archive.close();
  });

  it('answers a body that never arrives whole with 408 problem+json', async () => {
    const answer = await rawExchange(archive.baseUrl, 'POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly part');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer)).toMatchObject({ status: 408, code: 'request.timeout' });
  });

  it('answers headers that never end with 408 problem+json', async () => {
    const answer = await rawExchange(archive.baseUrl, 'GET /health HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer)).toMatchObject({ code: 'request.timeout' });
  });
});

describe('hardening: an API_KEYS value with no key refuses to boot', () => {
  it('names the variable', async () => {
    await expect(startArchive({ API_KEYS: ' , ' })).rejects.toThrow(/API_KEYS/);
  });
});

/**
 * A database the test can take away: PostgreSQL (the CI server, or an in-process PGlite) behind a
 * TCP relay the test closes, as when the database host goes down.
 */
class VanishingDatabase {
  private readonly sockets = new Set<net.Socket>();
  private relay?: net.Server;
  private pglite?: { db: PGlite; server: PGLiteSocketServer };
  private scratch?: ScratchDatabase;
  url = '';

  async start(): Promise<void> {
    const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
    let target: { host: string; port: number; path: string };
    if (serverUrl) {
      this.scratch = await createScratchDatabase(serverUrl, 'tabula_test_vanish');
      const url = new URL(this.scratch.url);
      target = { host: url.hostname, port: Number(url.port || 5432), path: url.pathname };
    } else {
      const db = await PGlite.create(undefined, { extensions: { pg_trgm } });
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0 });
      await server.start();
      this.pglite = { db, server };
      target = { host: '127.0.0.1', port: Number(server.getServerConn().split(':').pop()), path: '/postgres' };
    }
    this.relay = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.relay!.listen(0, '127.0.0.1', resolve));
    const { port } = this.relay.address() as net.AddressInfo;
    this.url = `postgres://postgres@127.0.0.1:${port}${target.path}`;
  }

  /** Every connection is cut and no new one is accepted. */
  async vanish(): Promise<void> {
    // Cut first: close() waits for every connection to end, and a pool kept busy (the imports' claims
    // every few seconds) never lets its connection go idle and end.
    const closed = new Promise<void>((resolve) => this.relay!.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /**
   * Every connection is cut, and each new one is refused at startup as a server refuses it, with a
   * FATAL ErrorResponse carrying `sqlstate` (55000: the database does not accept connections).
   */
  async refuse(sqlstate: string, message: string): Promise<void> {
    const { port } = this.relay!.address() as net.AddressInfo;
    await this.vanish();
    const field = (type: string, text: string) => Buffer.concat([Buffer.from(type), Buffer.from(text), Buffer.from([0])]);
    const fields = Buffer.concat([field('S', 'FATAL'), field('V', 'FATAL'), field('C', sqlstate), field('M', message), Buffer.from([0])]);
    const length = Buffer.alloc(4);
    length.writeInt32BE(fields.length + 4);
    const refusal = Buffer.concat([Buffer.from('E'), length, fields]);
    this.relay = net.createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => client.destroy());
      client.once('data', () => client.end(refusal));
    });
    await new Promise<void>((resolve) => this.relay!.listen(port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    if (this.relay?.listening) await new Promise<void>((resolve) => this.relay!.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    if (this.pglite) {
      await this.pglite.server.stop();
      await this.pglite.db.close();
    }
    await this.scratch?.drop();
  }
}

describe('hardening: the database goes away', () => {
  const database = new VanishingDatabase();
  let archive: TestArchive;

  beforeAll(async () => {
    await database.start();
    archive = await startArchive({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '1' });
    expect((await post(archive, '/games', 'before the outage\n')).status).toBe(201);
    await database.vanish();
  });
  afterAll(async () => {
    await archive.close();
    await database.stop();
  });

  it.each([
    ['GET', '/health'],
    ['GET', '/games'],
    ['GET', '/games?player=anna'],
    ['GET', '/games/1'],
    ['GET', '/games/1/raw'],
    ['GET', '/games/1/replay'],
    ['POST', '/games'],
    ['DELETE', '/games/1'],
  ])('answers %s %s with 503 service.unavailable and Retry-After', async (method, path) => {
    const response = await fetch(`${archive.baseUrl}${path}`, { method, body: method === 'POST' ? 'during the outage\n' : undefined });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await problemOf(response)).toMatchObject({ status: 503, code: 'service.unavailable' });
  });
});

describe('hardening: the database does not accept connections', () => {
  const database = new VanishingDatabase();
  let archive: TestArchive;

  beforeAll(async () => {
    await database.start();
    archive = await startArchive({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '1' });
    expect((await post(archive, '/games', 'before the refusal\n')).status).toBe(201);
    await database.refuse('55000', 'database "tabula" is not currently accepting connections');
  });
  afterAll(async () => {
    await archive.close();
    await database.stop();
  });

  it.each([
    ['GET', '/games'],
    ['GET', '/games/1'],
    ['POST', '/games'],
  ])('answers %s %s with 503 service.unavailable and Retry-After, not 500', async (method, path) => {
    const response = await fetch(`${archive.baseUrl}${path}`, { method, body: method === 'POST' ? 'while refused\n' : undefined });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await problemOf(response)).toMatchObject({ status: 503, code: 'service.unavailable' });
  });
});
