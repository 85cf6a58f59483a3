import { startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { seededRandom } from '../support/seeded-random.js';

/**
 * Tags on games (src/tags): set by the game's owner or an admin, checked (400 `tag.invalid`), kept
 * through a re-reading of the game and dropped with it; `tags=` filters searches (all of, none of),
 * checked here against a filter over the tags the test itself set; GET /tags counts them.
 */
const ADMIN_KEY = 'admin-key-for-the-tags-suite';
const sgf = (name: string) => Buffer.from(`(;GM[1]FF[4]SZ[9]PB[${name} Black]PW[${name} White];B[ee];W[cc];B[gg])`);

interface Problem {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
}

interface Token {
  readonly id: number;
  readonly token: string;
}

interface Listed {
  readonly id: number;
  readonly tags: string[];
}

function call(baseUrl: string, method: string, path: string, token?: string, body?: Buffer | unknown): Promise<Response> {
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  let payload: BodyInit | undefined;
  if (Buffer.isBuffer(body)) payload = new Uint8Array(body);
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  return fetch(`${baseUrl}${path}`, { method, headers, body: payload });
}

/** Code-point order, written here apart from the archive's SQL (`COLLATE "C"`). */
function byCodePoint(a: string, b: string): number {
  const [x, y] = [Array.from(a), Array.from(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

describe('tags on games', () => {
  let archive: TestArchive;
  let base: string;
  let clubA: Token;
  let clubB: Token;
  let deleteOnly: Token;
  const gamesOfA: number[] = [];
  const gamesOfB: number[] = [];
  /** The tags this test gave each game, as it expects the archive to hold them. */
  const expected = new Map<number, Set<string>>();

  const makeToken = async (account: string, scopes: string[]): Promise<Token> => {
    const answer = await call(base, 'POST', '/tokens', ADMIN_KEY, { account, name: `${account} tags`, scopes });
    expect(answer.status).toBe(201);
    return (await answer.json()) as Token;
  };
  const problemOf = async (answer: Response): Promise<Problem> => {
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    return (await answer.json()) as Problem;
  };
  const put = (id: number, tags: unknown, token: string = ADMIN_KEY) => call(base, 'PUT', `/games/${id}/tags`, token, tags);
  const setTags = async (id: number, tags: string[], token: string = ADMIN_KEY): Promise<void> => {
    const answer = await put(id, tags, token);
    expect(answer.status).toBe(200);
    expected.set(id, new Set(tags.map((tag) => tag.normalize('NFC'))));
  };
  const tagsOf = async (id: number): Promise<string[]> => {
    const answer = await call(base, 'GET', `/games/${id}`);
    expect(answer.status).toBe(200);
    return ((await answer.json()) as Listed).tags;
  };
  const allGames = () => [...gamesOfA, ...gamesOfB];
  /** Every page of a search, following `next`. */
  const searchAll = async (query: string, limit = 100): Promise<Listed[]> => {
    const found: Listed[] = [];
    let answer = await call(base, 'GET', `/games?${query}&limit=${limit}`);
    for (;;) {
      expect(answer.status).toBe(200);
      const page = (await answer.json()) as { items: Listed[]; next: string | null };
      found.push(...page.items);
      if (page.next === null) return found;
      answer = await call(base, 'GET', `/games?cursor=${encodeURIComponent(page.next)}&limit=${limit}`);
    }
  };
  /** The audit entry of a request (written as its answer goes, so looked for until there). */
  const auditOf = async (requestId: string) => {
    for (let tries = 0; tries < 50; tries++) {
      const page = (await (await call(base, 'GET', '/audit?limit=500', ADMIN_KEY)).json()) as { items: { requestId: string | null }[] };
      const entry = page.items.find((item) => item.requestId === requestId);
      if (entry) return entry;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no audit entry for request ${requestId}`);
  };

  beforeAll(async () => {
    archive = await startArchive({ API_KEYS: ADMIN_KEY });
    base = archive.baseUrl;
    clubA = await makeToken('club-a', ['games:write', 'games:delete', 'games:reindex']);
    clubB = await makeToken('club-b', ['games:write', 'games:delete']);
    deleteOnly = await makeToken('club-a', ['games:delete']);
    for (let i = 0; i < 12; i++) {
      const ofA = i % 3 !== 2;
      const answer = await call(base, 'POST', '/games', ofA ? clubA.token : clubB.token, sgf(`Player ${i}`));
      expect(answer.status).toBe(201);
      const id = ((await answer.json()) as { id: number }).id;
      (ofA ? gamesOfA : gamesOfB).push(id);
      expected.set(id, new Set());
    }
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('sets tags of any script, kept in NFC, repeats dropped, case kept, sorted by code point', async () => {
    const id = gamesOfA[0];
    // "étude" twice: once with a combining accent, once precomposed; NFC makes them one tag.
    const sent = ['studied', 'Studied', 'урок', '定石', 'ko-fight', '_x', '9dan', 'e\u0301tude', '\u00e9tude', 'studied', 'नमस्ते'];
    const answer = await put(id, sent, clubA.token);
    expect(answer.status).toBe(200);
    const want = [...new Set(sent.map((tag) => tag.normalize('NFC')))].sort(byCodePoint);
    expect(want).toHaveLength(9);
    expect(await answer.json()).toEqual({ id, tags: want });
    expect(await tagsOf(id)).toEqual(want);
    // The whole list replaces the old one.
    await setTags(id, ['studied', 'joseki'], clubA.token);
    expect(await tagsOf(id)).toEqual(['joseki', 'studied']);
    await setTags(id, [], clubA.token);
    expect(await tagsOf(id)).toEqual([]);
  });

  it('refuses bad tags with 400 tag.invalid naming what is wrong, and leaves the tags as they were', async () => {
    const id = gamesOfA[1];
    await setTags(id, ['kept'], clubA.token);
    const cases: [unknown, RegExp][] = [
      [['two words'], /U\+0020/],
      [['a/b'], /"\/"/],
      [['ok', ''], /\[1\] is empty/],
      [['-lead'], /starts with "-"/],
      [['x'.repeat(51)], /51 characters, more than 50/],
      [[5], /not text/],
      [[null], /null/],
      [['tab\there'], /U\+0009/],
      [{ tags: ['a'] }, /JSON array/],
      [Array.from({ length: 51 }, (_, i) => `t${i}`), /51 different tags/],
    ];
    for (const [body, detail] of cases) {
      const answer = await put(id, body, clubA.token);
      expect(answer.status).toBe(400);
      const problem = await problemOf(answer);
      expect(problem.code).toBe('tag.invalid');
      expect(problem.detail).toMatch(detail);
    }
    expect(await tagsOf(id)).toEqual(['kept']);
    // Fifty, each of fifty characters, are allowed.
    const fifty = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(2, '0')}${'ж'.repeat(48)}`);
    await setTags(id, fifty, clubA.token);
    expect(await tagsOf(id)).toEqual([...fifty].sort(byCodePoint));
    await setTags(id, ['kept'], clubA.token);
    // Not JSON at all is a bad request, not a bad tag.
    const notJson = await call(base, 'PUT', `/games/${id}/tags`, clubA.token, Buffer.from('[studied'));
    expect(notJson.status).toBe(400);
    expect((await problemOf(notJson)).code).toBe('request.invalid');
  });

  it("lets only the game's owner or an admin write its tags, and records every write", async () => {
    const id = gamesOfA[2];
    const other = await put(id, ['mine'], clubB.token);
    expect(other.status).toBe(403);
    expect((await problemOf(other)).code).toBe('auth.forbidden');
    // As DELETE answers the same token for the same game.
    expect((await call(base, 'DELETE', `/games/${id}`, clubB.token)).status).toBe(403);
    const unscoped = await put(id, ['mine'], deleteOnly.token);
    expect(unscoped.status).toBe(403);
    expect((await problemOf(unscoped)).code).toBe('auth.scope');
    const byAdmin = await put(id, ['mine'], ADMIN_KEY);
    expect(byAdmin.status).toBe(200);
    const nobody = await call(base, 'PUT', `/games/${id}/tags`, undefined, ['mine']);
    expect(nobody.status).toBe(401);
    expect((await problemOf(nobody)).code).toBe('auth.required');
    const missing = await put(999999, ['mine'], clubA.token);
    expect(missing.status).toBe(404);
    expect((await problemOf(missing)).code).toBe('game.not_found');
    expected.set(id, new Set(['mine']));
    expect(await tagsOf(id)).toEqual(['mine']);

    const refused = await auditOf(other.headers.get('x-request-id')!);
    expect(refused).toMatchObject({ account: 'club-b', tokenId: String(clubB.id), action: 'game.tags', target: String(id), status: 403 });
    const done = await auditOf(byAdmin.headers.get('x-request-id')!);
    expect(done).toMatchObject({ account: 'admin', action: 'game.tags', target: String(id), status: 200 });
    // Club B may tag its own games.
    await setTags(gamesOfB[0], ['mine'], clubB.token);
  });

  it('adds and removes tags over a search, only on the games the caller may write, in batches', async () => {
    // Club A, no filter: its own games only, three at a time.
    const before = new Map([...expected].map(([id, tags]) => [id, new Set(tags)]));
    let after = 0;
    let changed = 0;
    let matched = 0;
    const requests: string[] = [];
    for (;;) {
      const answer = await call(base, 'POST', `/games/tags?limit=3&after=${after}`, clubA.token, { add: ['bulk', 'mine'] });
      expect(answer.status).toBe(200);
      requests.push(answer.headers.get('x-request-id')!);
      const page = (await answer.json()) as { matched: number; changed: number; full: number[]; next: number | null };
      expect(page.matched).toBeLessThanOrEqual(3);
      expect(page.full).toEqual([]);
      matched += page.matched;
      changed += page.changed;
      if (page.next === null) break;
      after = page.next;
    }
    for (const id of gamesOfA) for (const tag of ['bulk', 'mine']) expected.get(id)!.add(tag);
    const changedByTest = allGames().filter((id) => expected.get(id)!.size !== before.get(id)!.size).length;
    expect(matched).toBe(gamesOfA.length);
    expect(changed).toBe(changedByTest);
    for (const id of allGames()) expect(await tagsOf(id)).toEqual([...expected.get(id)!].sort(byCodePoint));
    expect(await auditOf(requests[0])).toMatchObject({ account: 'club-a', action: 'games.tags', status: 200 });

    // Another club's games are refused; an admin changes anyone's, here narrowed by a filter.
    const others = await call(base, 'POST', '/games/tags?owner=club-b', clubA.token, { add: ['x'] });
    expect(others.status).toBe(403);
    expect((await problemOf(others)).code).toBe('auth.forbidden');
    const byAdmin = await call(base, 'POST', '/games/tags?tags=mine,-bulk', ADMIN_KEY, { remove: ['mine'], add: ['was-mine'] });
    expect(byAdmin.status).toBe(200);
    const hit = allGames().filter((id) => expected.get(id)!.has('mine') && !expected.get(id)!.has('bulk'));
    expect(hit.length).toBeGreaterThan(0);
    for (const id of hit) {
      expected.get(id)!.delete('mine');
      expected.get(id)!.add('was-mine');
    }
    expect(await byAdmin.json()).toEqual({ matched: hit.length, changed: hit.length, full: [], next: null });
    for (const id of allGames()) expect(await tagsOf(id)).toEqual([...expected.get(id)!].sort(byCodePoint));

    // A game already at 50 tags is left without the new ones, and listed.
    const crowded = gamesOfB[1];
    const fifty = Array.from({ length: 50 }, (_, i) => `c${i}`);
    await setTags(crowded, fifty);
    const full = await call(base, 'POST', `/games/tags?owner=club-b`, ADMIN_KEY, { add: ['one-more'] });
    const answer = (await full.json()) as { full: number[]; changed: number };
    expect(answer.full).toEqual([crowded]);
    for (const id of gamesOfB) if (id !== crowded) expected.get(id)!.add('one-more');
    expect(answer.changed).toBe(gamesOfB.length - 1);
    expect(await tagsOf(crowded)).toEqual([...fifty].sort(byCodePoint));
    await setTags(crowded, ['one-more']);

    for (const [body, code] of [
      [{ add: ['bad tag'] }, 'tag.invalid'],
      [{ add: ['a'], remove: ['a'] }, 'tag.invalid'],
      [{}, 'request.invalid'],
      [{ add: ['a'], other: 1 }, 'request.invalid'],
    ] as const) {
      const bad = await call(base, 'POST', '/games/tags', ADMIN_KEY, body);
      expect(bad.status).toBe(400);
      expect((await problemOf(bad)).code).toBe(code);
    }
  });

  it('filters searches by tags, all of and none of, as a filter over the tags set here finds', async () => {
    // Random tags from a small pool on every game, so that each filter has matches and misses.
    const random = seededRandom(47);
    const pool = ['studied', 'handicap', 'joseki', 'Joseki', 'урок'];
    for (const id of allGames()) await setTags(id, pool.filter(() => random() < 0.5));
    const filters = ['studied', 'studied,-handicap', '-handicap', 'joseki,урок', '-joseki,-Joseki', 'studied,handicap,-урок', 'nothing', '-nothing'];
    for (const filter of filters) {
      const items = filter.split(',');
      const all = items.filter((item) => !item.startsWith('-'));
      const none = items.filter((item) => item.startsWith('-')).map((item) => item.slice(1));
      const want = allGames()
        .filter((id) => all.every((tag) => expected.get(id)!.has(tag)) && none.every((tag) => !expected.get(id)!.has(tag)))
        .sort((a, b) => b - a);
      const found = await searchAll(`tags=${encodeURIComponent(filter)}`);
      expect({ filter, ids: found.map((game) => game.id) }).toEqual({ filter, ids: want });
      for (const game of found) expect(game.tags).toEqual([...expected.get(game.id)!].sort(byCodePoint));
      // The same through pages of two, the filter carried by the cursor.
      expect((await searchAll(`tags=${encodeURIComponent(filter)}`, 2)).map((game) => game.id)).toEqual(want);
    }
    // With another filter: club A's games only.
    const ofA = await searchAll(`owner=club-a&tags=studied`);
    expect(ofA.map((game) => game.id)).toEqual(gamesOfA.filter((id) => expected.get(id)!.has('studied')).sort((a, b) => b - a));
  });

  it('refuses a bad tags filter with 400 tag.invalid', async () => {
    const cases: [string, RegExp][] = [
      ['two%20words', /U\+0020/],
      ['a,,b', /item 2 is empty/],
      ['--x', /starts with "-"/],
      [Array.from({ length: 51 }, (_, i) => `t${i}`).join(','), /51 tags/],
      ['x'.repeat(51), /51 characters/],
    ];
    for (const [filter, detail] of cases) {
      const answer = await call(base, 'GET', `/games?tags=${filter}`);
      expect(answer.status).toBe(400);
      const problem = await problemOf(answer);
      expect(problem.code).toBe('tag.invalid');
      expect(problem.detail).toMatch(detail);
    }
  });

  it('counts each tag with GET /tags, most used first, by prefix and limit', async () => {
    const counted = (): { tag: string; games: number }[] => {
      const counts = new Map<string, number>();
      for (const tags of expected.values()) for (const tag of tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      return [...counts].map(([tag, games]) => ({ tag, games })).sort((a, b) => b.games - a.games || byCodePoint(a.tag, b.tag));
    };
    const answer = await call(base, 'GET', '/tags?limit=1000');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(counted());
    expect(await (await call(base, 'GET', '/tags?limit=2')).json()).toEqual(counted().slice(0, 2));
    expect(await (await call(base, 'GET', '/tags?prefix=jos')).json()).toEqual(counted().filter((row) => row.tag.startsWith('jos')));
  });

  it('keeps tags when the game is read again, and drops them with the game', async () => {
    const id = gamesOfA[3];
    await setTags(id, ['survives', 'studied'], clubA.token);
    const reread = await call(base, 'POST', `/games/${id}/reindex`, clubA.token);
    expect(reread.status).toBe(200);
    expect(((await reread.json()) as Listed).tags).toEqual(['studied', 'survives']);
    expect(await tagsOf(id)).toEqual(['studied', 'survives']);
    // The bytes are the file as uploaded: tags are not written into it.
    const raw = await call(base, 'GET', `/games/${id}/raw`);
    expect(Buffer.from(await raw.arrayBuffer()).equals(sgf('Player 4'))).toBe(true);

    expect((await call(base, 'DELETE', `/games/${id}`, clubA.token)).status).toBe(204);
    expected.delete(id);
    gamesOfA.splice(gamesOfA.indexOf(id), 1);
    const counts = (await (await call(base, 'GET', '/tags?limit=1000')).json()) as { tag: string; games: number }[];
    expect(counts.find((row) => row.tag === 'survives')).toBeUndefined();
    const studied = [...expected.values()].filter((tags) => tags.has('studied')).length;
    expect(counts.find((row) => row.tag === 'studied')?.games).toBe(studied);
    expect((await searchAll('tags=survives')).map((game) => game.id)).toEqual([]);
  });
});
