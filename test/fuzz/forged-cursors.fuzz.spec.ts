import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { FUZZ_SCALE } from '../support/fuzz.js';

/**
 * Cursors and ids are client input like any other. A cursor is base64url JSON this archive wrote,
 * but a client may send any text in its place: forged cursors (base64 of no JSON, another version,
 * a place or a filter out of range or impossible, huge numbers, days like 2020-02-31) on every
 * route that takes a cursor, and ids past PostgreSQL's bigint on every route that takes an id, are
 * each answered with a 4xx problem+json — a forged cursor with 400 `request.bad_cursor` — never a
 * 500 or a dropped connection, and the archive serves afterwards.
 */

interface Problem {
  status: number;
  code: string;
  detail: string;
}

let archive: TestArchive;
/** The games stored here, oldest first, and real cursors of each kind. */
let ids: number[];
let real: { games: string; played: string; position: string; pattern: string; export: string };

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const decoded = (cursor: string): Record<string, unknown> => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;

async function json<T>(response: Response): Promise<T> {
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

beforeAll(async () => {
  archive = await startArchive();
  ids = [];
  for (const [day, moves] of [['2001-02-03', ';B[cc];W[gg]'], ['2002-03-04', ';B[cc];W[gc]'], ['2003-04-05', ';B[gg];W[cc]'], ['2004-05-06', ';B[ee];W[cc]']]) {
    const sgf = `(;GM[1]FF[4]SZ[9]DT[${day}]PB[Forger ${day}]PW[Checker]RE[B+R]${moves})`;
    const stored = await post(archive, '/games?filename=cursor.sgf', Buffer.from(sgf), { 'Content-Type': 'application/x-go-sgf' });
    expect(stored.status).toBe(201);
    ids.push(((await stored.json()) as { id: number }).id);
  }
  const next = async (response: Response) => (await json<{ next: string | null }>(response)).next!;
  real = {
    // Filters every search route takes (a position or pattern search has no `sort`, a pattern search's family is go).
    games: await next(await fetch(`${archive.baseUrl}/games?limit=1&family=go&playedFrom=2001-01-01&movesMin=1&consistent=true`)),
    played: await next(await fetch(`${archive.baseUrl}/games?limit=1&sort=-played&playedTo=2030-12-31&movesMax=2147483647`)),
    position: await next(await fetch(`${archive.baseUrl}/positions/games?game=${ids[0]}&ply=0&limit=1`)),
    pattern: await next(await post(archive, '/patterns/games', JSON.stringify({ family: 'go', pattern: ['X'], limit: 1 }), { 'Content-Type': 'application/json' })),
    export: /cursor=([^&>]+)/.exec((await fetch(`${archive.baseUrl}/games/export?limit=1&uploadedFrom=2000-01-01T00:00:00Z`)).headers.get('link') ?? '')![1],
  };
});
afterAll(async () => {
  await archive?.close();
});

/** The answer is a 4xx problem+json with a code; the problem. */
async function refused(response: Response, what: string): Promise<Problem> {
  const text = await response.text();
  expect([what, response.status >= 400 && response.status < 500, response.status === 500 ? text : '']).toEqual([what, true, '']);
  expect([what, response.headers.get('content-type')]).toEqual([what, expect.stringMatching(/^application\/problem\+json/)]);
  const problem = JSON.parse(text) as Problem;
  expect([what, typeof problem.code, problem.status]).toEqual([what, 'string', response.status]);
  return problem;
}

/** The archive still answers: /health, and each real cursor as before. */
async function stillServing(): Promise<void> {
  expect((await fetch(`${archive.baseUrl}/health`)).status).toBe(200);
  for (const path of [`/games?cursor=${real.games}`, `/games?cursor=${real.played}`, `/positions/games?cursor=${real.position}`, `/games/export?cursor=${real.export}&limit=1`]) {
    expect([path, (await fetch(`${archive.baseUrl}${path}`)).status]).toEqual([path, 200]);
  }
  expect((await post(archive, '/patterns/games', JSON.stringify({ cursor: real.pattern }), { 'Content-Type': 'application/json' })).status).toBe(200);
}

// ---------------------------------------------------------------------------------------------
// Forged cursors

/** Values no filter of GET /games takes, as JSON text (so 1e400 and numbers past 2^53 stay as written). */
const BAD_FILTERS: Readonly<Record<string, readonly string[]>> = {
  player: ['""', `"${'x'.repeat(201)}"`, '"a\\u0000b"', '7', 'null', '["a"]'],
  publisher: ['7', '{}', '"\\u001b[31m"'],
  family: ['"chess"', '""', '1'],
  status: ['"gone"', 'true'],
  consistent: ['"maybe"', '1', 'null'],
  uploadedFrom: ['"2020-02-31T00:00:00Z"', '"yesterday"', '"2020-01-01T25:00:00Z"', '0'],
  uploadedTo: ['"2021-13-01T00:00:00Z"', '"+275760-09-14T00:00:00Z"'],
  owner: ['"Club A"', '"../x"'],
  movesMin: ['9007199254740991', '2147483648', '-1', '2.5', '1e400', '"many"', '99999999999999999999999'],
  movesMax: ['9007199254740991', '4294967296', '-2147483649'],
  boardSize: ['"0"', '"19x0"', '"99999"', '"nineteen"', '19'],
  event: ['""', '"\\u0000"'],
  playedFrom: ['"2020-02-31"', '"2021-02-29"', '"0000-01-01"', '"2020-1-1"', '"2020-02-03T00:00:00Z"', '20200203'],
  playedTo: ['"2020-04-31"', '"9999-99-99"'],
  ending: ['"checkmate"'],
  marginMin: ['-1', '1e400', '-1e400', '"five"'],
  marginMax: ['1e400', '"lots"'],
  rating: [`"${'9'.repeat(51)}"`],
  unique: ['"yes"', '0'],
  signature: ['"abc"', '"ABABABABABAB"'],
  sort: ['"random"', '""'],
  colour: ['"red"'],
  limit: ['5'],
  cursor: ['"x"'],
};

/** A place (where a page ended) no search writes. */
const BAD_PLACES: readonly string[] = [
  '"after":0',
  '"after":-1',
  '"after":1.5',
  '"after":9007199254740992',
  '"after":9223372036854775808',
  '"after":1e400',
  '"after":"5"',
  '"after":null',
  '"day":"2020-02-31"',
  '"at":"2020-02-31T00:00:00.000000Z"',
  '"at":"2020-01-01T00:00:00Z"',
  '"v":2',
  '"v":"1"',
  '"v":0',
  '"f":[]',
  '"f":null',
  '"f":"family=go"',
  '"extra":1',
];

/** Text in a cursor's place that is no cursor at all. */
const NO_CURSORS: readonly string[] = [
  'not-a-cursor',
  '%%%%',
  b64('not json'),
  b64('{"v":1,'),
  b64('null'),
  b64('[]'),
  b64('"a string"'),
  b64('1e400'),
  b64('{}'),
  b64('{"v":1}'),
  b64('\u0000\u0001'),
];

/** Games cursors of GET /games's shape with one thing forged: a filter's value, a place, or the whole text. */
const FORGED_GAMES: readonly { cursor: string; what: string }[] = [
  ...Object.entries(BAD_FILTERS).flatMap(([key, values]) =>
    values.map((value) => ({ cursor: b64(`{"v":1,"after":5,"f":{"family":"go",${JSON.stringify(key)}:${value}}}`), what: `f.${key} = ${value.slice(0, 40)}` })),
  ),
  // A later key wins in JSON.parse: the forged one replaces the sound one.
  ...BAD_PLACES.map((place) => ({ cursor: b64(`{"v":1,"after":5,"f":{"family":"go"},${place}}`), what: place })),
  ...NO_CURSORS.map((cursor) => ({ cursor, what: `the text ${cursor.slice(0, 40)}` })),
];

/** A position cursor whose position is forged (its games cursor the real one's). */
const POSITION_FORGERIES: readonly string[] = [
  '"v":2',
  '"c":7',
  '"p":null',
  '"p":{"f":"chess","w":9,"h":9,"k":"0000000000000000","t":0,"g":[0],"s":"all"}',
  '"p":{"f":"go","w":0,"h":9,"k":"0000000000000000","t":0,"g":[0],"s":"all"}',
  '"p":{"f":"go","w":9007199254740991,"h":9,"k":"0000000000000000","t":0,"g":[0],"s":"all"}',
  '"p":{"f":"go","w":9,"h":1e400,"k":"0000000000000000","t":0,"g":[0],"s":"all"}',
  '"p":{"f":"go","w":9,"h":9,"k":"00","t":0,"g":[0],"s":"all"}',
  '"p":{"f":"go","w":9,"h":9,"k":"zzzzzzzzzzzzzzzz","t":0,"g":[0],"s":"all"}',
  '"p":{"f":"go","w":9,"h":9,"k":"0000000000000000","t":8,"g":[0],"s":"all"}',
  '"p":{"f":"go","w":9,"h":9,"k":"0000000000000000","t":0,"g":[],"s":"all"}',
  '"p":{"f":"go","w":9,"h":9,"k":"0000000000000000","t":0,"g":[0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7],"s":"all"}',
  '"p":{"f":"go","w":9,"h":9,"k":"0000000000000000","t":0,"g":[-1],"s":"all"}',
  '"p":{"f":"go","w":9,"h":9,"k":"0000000000000000","t":0,"g":[0],"s":"some"}',
];

/** A pattern cursor whose pattern is forged (its games cursor the real one's). */
const PATTERN_FORGERIES: readonly string[] = [
  '"v":2',
  '"c":null',
  '"p":[]',
  '"p":{"f":"checkers","r":["X"],"a":"anywhere","c":"same"}',
  '"p":{"f":"go","r":[],"a":"anywhere","c":"same"}',
  '"p":{"f":"go","r":["XB"],"a":"anywhere","c":"same"}',
  '"p":{"f":"go","r":[".."],"a":"anywhere","c":"same"}',
  '"p":{"f":"go","r":["XX","X"],"a":"anywhere","c":"same"}',
  `"p":{"f":"go","r":["${'X'.repeat(65)}"],"a":"anywhere","c":"same"}`,
  `"p":{"f":"go","r":${JSON.stringify(Array.from({ length: 65 }, () => 'X'))},"a":"anywhere","c":"same"}`,
  `"p":{"f":"go","r":${JSON.stringify(Array.from({ length: 30 }, () => 'X'))},"a":"anywhere","c":"same"}`,
  '"p":{"f":"go","r":["X"],"a":"middle","c":"same"}',
  '"p":{"f":"go","r":["X"],"a":"anywhere","c":"never"}',
  '"p":{"f":"go","r":[7],"a":"anywhere","c":"same"}',
  // Rows nested past any JSON body's depth: reading them into the body's class would recurse that deep.
  `"p":{"f":"go","r":${'['.repeat(10_000)}${']'.repeat(10_000)},"a":"anywhere","c":"same"}`,
];

/** The real cursor of the kind with one key replaced by a forged one (a later key wins in JSON.parse). */
const replaced = (cursor: string, forgery: string): string => b64(`${JSON.stringify(decoded(cursor)).slice(0, -1)},${forgery}}`);

const jsonPost = (path: string, body: unknown) => post(archive, path, JSON.stringify(body), { 'Content-Type': 'application/json' });

/** Every route that takes a cursor, each sending a games cursor inside the cursor of its own kind. */
const ROUTES: readonly { name: string; send: (games: string) => Promise<Response> }[] = [
  { name: 'GET /games', send: (games) => fetch(`${archive.baseUrl}/games?cursor=${games}`) },
  { name: 'GET /games/export', send: (games) => fetch(`${archive.baseUrl}/games/export?cursor=${games}`, { headers: { Accept: 'application/x-ndjson' } }) },
  { name: 'GET /games/export (zip, limit)', send: (games) => fetch(`${archive.baseUrl}/games/export?cursor=${games}&limit=2`, { headers: { Accept: 'application/zip' } }) },
  { name: 'GET /positions/games', send: (games) => fetch(`${archive.baseUrl}/positions/games?cursor=${replaced(real.position, `"c":${JSON.stringify(games)}`)}`) },
  { name: 'POST /positions/games', send: (games) => jsonPost('/positions/games', { family: 'go', sgf: '(;SZ[9])', cursor: replaced(real.position, `"c":${JSON.stringify(games)}`) }) },
  { name: 'GET /positions/explorer', send: (games) => fetch(`${archive.baseUrl}/positions/explorer?game=${ids[0]}&ply=0&cursor=${replaced(real.position, `"c":${JSON.stringify(games)}`)}`) },
  { name: 'POST /patterns/games', send: (games) => jsonPost('/patterns/games', { cursor: replaced(real.pattern, `"c":${JSON.stringify(games)}`) }) },
];

describe('forged cursors', () => {
  it('the real cursors continue their searches, on every route', async () => {
    for (const route of ROUTES) {
      const response = await route.send(real.games);
      expect([route.name, response.status]).toEqual([route.name, 200]);
      await response.arrayBuffer();
    }
    expect((await json<{ items: unknown[] }>(await fetch(`${archive.baseUrl}/games?cursor=${real.games}`))).items.length).toBeGreaterThan(0);
  });

  it('a forged games cursor is 400 request.bad_cursor on every route that takes a cursor, saying what is wrong', async () => {
    for (const route of ROUTES) {
      for (const { cursor, what } of FORGED_GAMES) {
        const problem = await refused(await route.send(cursor), `${route.name} with ${what}`);
        expect([route.name, what, problem.status, problem.code, problem.detail]).toEqual([route.name, what, 400, 'request.bad_cursor', expect.stringMatching(/^the cursor is not one this archive wrote: .+/)]);
      }
    }
    await stillServing();
  });

  it.each(['/games', '/games/export', '/positions/games', '/positions/explorer?game=1&ply=0'])('any text in place of a cursor on GET %s is a 4xx problem, never a 500', async (path) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 60 }), fc.json({ maxDepth: 3 }).map(b64), fc.base64String({ maxLength: 80 })), async (text) => {
        const url = `${archive.baseUrl}${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(text)}`;
        await refused(await fetch(url), `${path} with the cursor ${JSON.stringify(text)}`);
      }),
      { numRuns: 30 * FUZZ_SCALE },
    );
    await stillServing();
  });

  it("any text as a player search's `after` or a player's games' `before` is a page or a 4xx problem, never a 500", async () => {
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 220 }), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String), fc.constantFrom('9223372036854775807', '9223372036854775808', '0x10', '1e3', ' 5', '5.0'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('after', 'before'), text, async (name, value) => {
        const path = name === 'after' ? `/players?name=forger&after=${encodeURIComponent(value)}` : `/players/checker/games?before=${encodeURIComponent(value)}`;
        const response = await fetch(`${archive.baseUrl}${path}`);
        if (response.status === 200) await response.arrayBuffer();
        else await refused(response, `${path}`);
      }),
      { numRuns: 60 * FUZZ_SCALE },
    );
    await stillServing();
  });

  it('a position cursor whose position is forged is 400 request.bad_cursor', async () => {
    for (const forgery of POSITION_FORGERIES) {
      const cursor = replaced(real.position, forgery);
      for (const [name, response] of [
        ['GET', await fetch(`${archive.baseUrl}/positions/games?cursor=${cursor}`)],
        ['POST', await jsonPost('/positions/games', { family: 'go', sgf: '(;SZ[9])', cursor })],
      ] as const) {
        const what = `${name} /positions/games with ${forgery}`;
        expect([what, (await refused(response, what)).code]).toEqual([what, 'request.bad_cursor']);
      }
    }
    await stillServing();
  });

  it('a pattern cursor whose pattern is forged is 400 request.bad_cursor, saying what is wrong', async () => {
    for (const forgery of PATTERN_FORGERIES) {
      const what = `POST /patterns/games with ${forgery.slice(0, 80)}`;
      const problem = await refused(await jsonPost('/patterns/games', { cursor: replaced(real.pattern, forgery) }), what);
      expect([what, problem.code]).toEqual([what, 'request.bad_cursor']);
    }
    await stillServing();
  });

  it('says what is wrong with the cursor', async () => {
    const problem = async (cursor: string) => refused(await fetch(`${archive.baseUrl}/games?cursor=${cursor}`), cursor);
    expect(await problem(b64('{"v":1,"after":5,"f":{"playedFrom":"2020-02-31"}}'))).toMatchObject({ code: 'request.bad_cursor', detail: expect.stringMatching(/playedFrom/) });
    expect(await problem(b64('{"v":1,"after":5,"f":{"movesMin":9007199254740991}}'))).toMatchObject({ code: 'request.bad_cursor', detail: expect.stringMatching(/movesMin must not be greater than 2147483647/) });
    expect(await problem(b64('{"v":7,"after":5,"f":{}}'))).toMatchObject({ code: 'request.bad_cursor', detail: expect.stringMatching(/version/) });
    expect(await problem('not-a-cursor')).toMatchObject({ code: 'request.bad_cursor' });
  });

  it('the export answers a forged cursor before it starts: a 400, not a dropped connection', async () => {
    for (const accept of ['application/x-ndjson', 'application/zip', 'application/x-tar']) {
      const response = await fetch(`${archive.baseUrl}/games/export?cursor=${b64('{"v":1,"after":5,"f":{"playedFrom":"2020-02-31"}}')}`, { headers: { Accept: accept } });
      expect([accept, (await refused(response, accept)).code]).toEqual([accept, 'request.bad_cursor']);
    }
    await stillServing();
  });
});

// ---------------------------------------------------------------------------------------------
// Ids past bigint, and integers past an SQL int

/** Past 2^63-1, the largest bigint; 19 digits like the largest, and longer. */
const HUGE_IDS = ['9223372036854775808', '9999999999999999999', '18446744073709551616', '99999999999999999999999', '1'.repeat(60)];

describe('ids past bigint on every route that takes one', () => {
  const spec = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: { format?: string } }[] }>>;
  };
  const operations = Object.entries(spec.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })));
  /** Every path parameter, and every query parameter, that is an int64: ids and the cursors that are ids. */
  const byPath = operations.filter(({ operation }) => operation.parameters?.some((parameter) => parameter.in === 'path' && parameter.schema?.format === 'int64'));
  const byQuery = operations.flatMap(({ method, path, operation }) =>
    (operation.parameters ?? []).filter((parameter) => parameter.in === 'query' && parameter.schema?.format === 'int64').map((parameter) => ({ method, path, name: parameter.name })),
  );

  it('finds them in the spec', () => {
    expect(byPath.map(({ method, path }) => `${method} ${path}`)).toEqual(expect.arrayContaining(['GET /games/{id}', 'GET /games/{id}/relatives', 'GET /uploads/{id}', 'GET /imports/{id}']));
    expect(byQuery.map(({ method, path, name }) => `${method} ${path} ${name}`)).toEqual(
      expect.arrayContaining(['GET /positions/games game', 'GET /positions/explorer game', 'GET /players/{key}/games before', 'POST /reindex after']),
    );
  });

  it('a path id past bigint is 400 request.bad_id (or refused before, 401/403)', async () => {
    for (const { method, path } of byPath) {
      for (const id of HUGE_IDS) {
        const what = `${method} ${path} with ${id}`;
        const response = await fetch(`${archive.baseUrl}${path.replace('{id}', id)}`, { method });
        const problem = await refused(response, what);
        if (!path.startsWith('/tokens')) expect([what, problem.status, problem.code]).toEqual([what, 400, 'request.bad_id']);
      }
    }
    await stillServing();
  });

  it('a query parameter naming a game past bigint is 400 request.invalid, saying which parameter', async () => {
    for (const { method, path, name } of byQuery) {
      for (const id of HUGE_IDS) {
        const what = `${method} ${path} with ${name}=${id}`;
        const query = path.startsWith('/positions') ? `${name}=${id}&ply=0` : `${name}=${id}`;
        const response = await fetch(`${archive.baseUrl}${path.replace('{key}', 'checker')}?${query}`, { method });
        const problem = await refused(response, what);
        expect([what, problem.status, problem.code, problem.detail]).toEqual([what, 400, 'request.invalid', expect.stringContaining(`${name} must be a game id`)]);
      }
    }
    await stillServing();
  });

  it('an integer filter past an SQL int is 400 request.invalid on every search, as a parameter and in a body', async () => {
    for (const value of ['2147483648', '9007199254740991', '99999999999999999999']) {
      for (const name of ['movesMin', 'movesMax']) {
        const what = `${name}=${value}`;
        for (const response of [
          await fetch(`${archive.baseUrl}/games?${name}=${value}`),
          await fetch(`${archive.baseUrl}/games/export?${name}=${value}`),
          await fetch(`${archive.baseUrl}/positions/games?game=${ids[0]}&ply=0&${name}=${value}`),
          await fetch(`${archive.baseUrl}/positions/explorer?game=${ids[0]}&ply=0&${name}=${value}`),
          await post(archive, `/reindex?${name}=${value}`, ''),
          await jsonPost('/positions/games', { family: 'go', sgf: '(;SZ[9])', [name]: Number(value) }),
          await jsonPost('/patterns/games', { family: 'go', pattern: ['X'], [name]: Number(value) }),
        ]) {
          const problem = await refused(response, what);
          expect([what, problem.status, problem.code, problem.detail]).toEqual([what, 400, 'request.invalid', expect.stringContaining(`${name} must not be greater than 2147483647`)]);
        }
      }
    }
    await stillServing();
  });
});
