import http from 'node:http';
import { createScratchDatabase, ScratchDatabase } from '../support/scratch-database.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * Cost-based limits (docs/limits.md) seen by clients on different loopback addresses (the whole of
 * 127.0.0.0/8 reaches the archive on 127.0.0.1), each with a connection of its own per request, as
 * the browsers and scripts the limits are for.
 */

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

interface Sent {
  readonly from: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

function send(archive: TestArchive, path: string, { from, method = 'GET', headers = {}, body }: Sent): Promise<Answer> {
  const { port } = new URL(archive.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: Number(port), path, method, headers, localAddress: from, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

const PATTERN = JSON.stringify({ family: 'go', pattern: ['X.', 'OX'] });
const patternSearch = (archive: TestArchive, from: string) =>
  send(archive, '/patterns/games', { from, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: PATTERN });

/** A pattern search whose body never arrives whole: it stays in flight until `drop` closes its connection. */
function heldPatternSearch(archive: TestArchive, from: string): { drop(): void; answered: Promise<unknown> } {
  const { port } = new URL(archive.baseUrl);
  const request = http.request({
    host: '127.0.0.1',
    port: Number(port),
    path: '/patterns/games',
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(PATTERN.length + 100) },
    localAddress: from,
    agent: false,
  });
  const answered = new Promise((resolve) => {
    request.on('response', resolve);
    request.on('error', resolve);
    request.on('close', resolve);
  });
  request.write(PATTERN);
  return { drop: () => request.destroy(), answered };
}

/** Tries `attempt` every 50 ms for up to 5 s until `done` holds of its answer; returns the last answer. */
async function eventually(attempt: () => Promise<Answer>, done: (answer: Answer) => boolean): Promise<Answer> {
  const until = Date.now() + 5000;
  for (;;) {
    const answer = await attempt();
    if (done(answer) || Date.now() > until) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const game = (n: number) => `(;GM[1]FF[4]SZ[9]PB[Cost ${n}]PW[Limits]KM[6.5];B[ee];W[cc];B[gg])`;

async function upload(archive: TestArchive, n: number, headers: Record<string, string> = {}): Promise<Response> {
  return post(archive, `/games?filename=cost-${n}.sgf`, game(n), { 'Content-Type': 'application/x-go-sgf', ...headers });
}

function problemOf(answer: Answer): Record<string, unknown> {
  expect(answer.headers['content-type']).toContain('application/problem+json');
  return JSON.parse(answer.body) as Record<string, unknown>;
}

describe('cost limits: a request costs units by its kind', () => {
  let archive: TestArchive;
  let id: number;

  beforeAll(async () => {
    archive = await startArchive({ RATE_LIMIT_PER_MINUTE: '40', RATE_LIMIT_WRITES_PER_MINUTE: '10', RATE_LIMIT_EXEMPT_LOOPBACK: 'false' });
    const stored = await upload(archive, 1);
    expect(stored.status).toBe(201);
    id = ((await stored.json()) as { id: number }).id;
  });
  afterAll(async () => {
    await archive.close();
  });

  it('refuses a client of 2048 px PNGs after fewer requests than one of GET /games/{id} with the same budget, with Retry-After and RateLimit headers', async () => {
    const reads: number[] = [];
    for (let i = 0; i < 41; i++) reads.push((await send(archive, `/games/${id}`, { from: '127.0.0.2' })).status);
    expect(reads.slice(0, 40).every((status) => status === 200)).toBe(true);
    expect(reads[40]).toBe(429);

    const first = await send(archive, `/games/${id}/board.svg?format=png&size=2048`, { from: '127.0.0.3' });
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['ratelimit-limit']).toBe('40');
    expect(first.headers['ratelimit-remaining']).toBe('6');
    const refused = await send(archive, `/games/${id}/board.svg?format=png&size=2048`, { from: '127.0.0.3' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-limit']).toBe('40');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-policy']).toBe('40;w=60');
    expect(problemOf(refused)).toMatchObject({ status: 429, code: 'request.rate_limited', detail: expect.stringContaining('a board picture costs 34') });

    // A refused request counts too (the window does not move): the client waits for the next minute. /health is never limited.
    expect((await send(archive, `/games/${id}`, { from: '127.0.0.3' })).status).toBe(429);
    for (const from of ['127.0.0.2', '127.0.0.3']) {
      const health = await send(archive, '/health', { from });
      expect(health.status).toBe(200);
      expect(health.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('cost limits: expensive requests in flight', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive({ RATE_LIMIT_PER_MINUTE: '1000', EXPENSIVE_IN_FLIGHT_PER_CLIENT: '2', RATE_LIMIT_EXEMPT_LOOPBACK: 'false' });
  });
  afterAll(async () => {
    await archive.close();
  });

  it('refuses a client with two expensive requests running a third at once, serves another client meanwhile, and frees the slots when the connections close', async () => {
    const held = [heldPatternSearch(archive, '127.0.0.4'), heldPatternSearch(archive, '127.0.0.4')];
    try {
      const refused = await eventually(
        () => patternSearch(archive, '127.0.0.4'),
        (answer) => answer.status === 429,
      );
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(problemOf(refused)).toMatchObject({ code: 'request.rate_limited', detail: expect.stringContaining('2 expensive requests') });
      // A cheap read of the same client is not held up.
      expect((await send(archive, '/games', { from: '127.0.0.4' })).status).toBe(200);
      const other = await patternSearch(archive, '127.0.0.5');
      expect(other.status).toBe(200);
    } finally {
      for (const request of held) request.drop();
    }
    await Promise.all(held.map((request) => request.answered));
    const served = await eventually(
      () => patternSearch(archive, '127.0.0.4'),
      (answer) => answer.status === 200,
    );
    expect(served.status).toBe(200);
  });
});

describe('cost limits: writes have a budget of their own', () => {
  let archive: TestArchive;
  const KEY = 'club-uploader-5e1b';
  const keyed = { Authorization: `Bearer ${KEY}` };
  let id: number;

  beforeAll(async () => {
    archive = await startArchive({
      API_KEYS: KEY,
      RATE_LIMIT_PER_MINUTE: '20',
      RATE_LIMIT_WRITES_PER_MINUTE: '1',
      RATE_LIMIT_KEY_PER_MINUTE: '5',
      RATE_LIMIT_KEY_WRITES_PER_MINUTE: '50',
      RATE_LIMIT_EXEMPT_LOOPBACK: 'false',
    });
    const stored = await upload(archive, 100, keyed);
    expect(stored.status).toBe(201);
    id = ((await stored.json()) as { id: number }).id;
  });
  afterAll(async () => {
    await archive.close();
  });

  it('does not refuse a keyed uploader while an anonymous client exhausts its read budget', async () => {
    const searches: number[] = [];
    const uploads: number[] = [];
    for (let n = 0; n < 6; n++) {
      searches.push((await patternSearch(archive, '127.0.0.6')).status);
      uploads.push((await upload(archive, 200 + n, keyed)).status);
    }
    expect(searches).toEqual([200, 429, 429, 429, 429, 429]);
    expect(uploads).toEqual([201, 201, 201, 201, 201, 201]);
  });

  it("does not let a keyed client's reads use up its writes", async () => {
    const reads: number[] = [];
    for (let i = 0; i < 6; i++) reads.push((await send(archive, `/games/${id}`, { from: '127.0.0.1', headers: keyed })).status);
    expect(reads).toEqual([200, 200, 200, 200, 200, 429]);
    const stored = await upload(archive, 300, keyed);
    expect(stored.status).toBe(201);
    expect(stored.headers.get('ratelimit-limit')).toBe('50');
  });
});

const serverUrl = process.env.TABULA_TEST_DATABASE_URL;
const onServer = serverUrl ? describe : describe.skip;

onServer('cost limits: two nodes on one database (only on a PostgreSQL server)', () => {
  let database: ScratchDatabase;
  const nodes: TestArchive[] = [];

  beforeAll(async () => {
    database = await createScratchDatabase(serverUrl!, 'tabula_test_cost_limits');
    for (let i = 0; i < 2; i++) nodes.push(await startArchive({ DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: '6', RATE_LIMIT_EXEMPT_LOOPBACK: 'false' }));
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
    await database?.drop();
  });

  it("share one client's budget: what it spent on one node is gone on the other", async () => {
    const remaining: (string | undefined)[] = [];
    for (const node of [nodes[0], nodes[0], nodes[0], nodes[1], nodes[1], nodes[1]]) {
      const answer = await send(node, '/formats', { from: '127.0.0.7' });
      expect(answer.status).toBe(200);
      remaining.push(answer.headers['ratelimit-remaining'] as string | undefined);
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    const refused = await send(nodes[1], '/formats', { from: '127.0.0.7' });
    expect(refused.status).toBe(429);
    expect((await send(nodes[0], '/formats', { from: '127.0.0.7' })).status).toBe(429);
    // Another client's budget is whole on either node.
    expect((await send(nodes[1], '/formats', { from: '127.0.0.8' })).headers['ratelimit-remaining']).toBe('5');
  });
});
