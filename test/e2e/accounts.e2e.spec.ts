import { readFileSync } from 'node:fs';
import type { AuditEntryDto } from '../../src/accounts/dto/audit.dto.js';
import { startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { createScratchDatabase } from '../support/scratch-database.js';
import { createStore, serverUrl, startServer, stop } from '../support/server-process.js';
import type { RunningServer } from '../support/server-process.js';

/**
 * Accounts, scoped tokens, owners and the audit trail (docs/accounts.md), on whichever database the
 * suite runs on: two clubs and an admin share one archive, and neither club can touch the other's
 * games.
 */
const ADMIN_KEY = 'admin-key-for-the-accounts-suite';
const GOFANS = readFileSync('test/fixtures/gofans-examples/ex_2.2.xml');
const sgf = (tag: string) => Buffer.from(`(;GM[1]FF[4]SZ[9]PB[${tag} Black]PW[${tag} White];B[ee];W[cc];B[gg])`);

interface Problem {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
}

interface Token {
  readonly id: number;
  readonly account: string;
  readonly scopes: string[];
  readonly token: string;
}

type AuditEntry = AuditEntryDto;

function call(baseUrl: string, method: string, path: string, token?: string, body?: Buffer | object): Promise<Response> {
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  let payload: BodyInit | undefined;
  if (Buffer.isBuffer(body)) payload = new Uint8Array(body);
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  return fetch(`${baseUrl}${path}`, { method, headers, body: payload });
}

async function makeToken(baseUrl: string, account: string, scopes: string[], extra: Record<string, string> = {}): Promise<Token> {
  const answer = await call(baseUrl, 'POST', '/tokens', ADMIN_KEY, { account, name: `${account} laptop`, scopes, ...extra });
  expect(answer.status).toBe(201);
  return (await answer.json()) as Token;
}

async function problemOf(answer: Response): Promise<Problem> {
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await answer.json()) as Problem;
}

/** The audit entries of a request: written as its answer goes, so looked for until there. */
async function auditOf(baseUrl: string, requestId: string): Promise<AuditEntry> {
  for (let tries = 0; tries < 50; tries++) {
    const page = (await (await call(baseUrl, 'GET', '/audit?limit=500', ADMIN_KEY)).json()) as { items: AuditEntry[] };
    const entry = page.items.find((item) => item.requestId === requestId);
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no audit entry for request ${requestId}`);
}

describe('accounts: two clubs and an admin on one archive', () => {
  let archive: TestArchive;
  let base: string;
  let clubA: Token;
  let clubB: Token;
  let writerOnly: Token;
  let gameOfA: number;

  beforeAll(async () => {
    archive = await startArchive({ API_KEYS: `other-admin-key,${ADMIN_KEY}` });
    base = archive.baseUrl;
    clubA = await makeToken(base, 'club-a', ['games:write', 'games:delete', 'games:reindex']);
    clubB = await makeToken(base, 'club-b', ['games:write', 'games:delete', 'games:reindex']);
    writerOnly = await makeToken(base, 'club-a', ['games:write']);
    const upload = await call(base, 'POST', '/games', clubA.token, GOFANS);
    expect(upload.status).toBe(201);
    gameOfA = ((await upload.json()) as { id: number }).id;
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('hands out a token once, as tabula_<id>_<secret>, and lists tokens without secrets', async () => {
    expect(clubA).toMatchObject({ account: 'club-a', scopes: ['games:write', 'games:delete', 'games:reindex'] });
    expect(clubA.token).toMatch(new RegExp(`^tabula_${clubA.id}_[A-Za-z0-9_-]{43}$`));
    const listed = await call(base, 'GET', '/tokens', ADMIN_KEY);
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).not.toContain(clubA.token.slice(-43));
    const items = (JSON.parse(text) as { items: { id: number; account: string; lastUsedAt: string | null }[] }).items;
    expect(items.map((item) => item.id)).toEqual(expect.arrayContaining([clubA.id, clubB.id, writerOnly.id]));
    // Club A's token was used for the upload above.
    expect(items.find((item) => item.id === clubA.id)?.lastUsedAt).not.toBeNull();
  });

  it("records the publisher as the game's owner, and searches by owner", async () => {
    const game = (await (await call(base, 'GET', `/games/${gameOfA}`)).json()) as { owner: string | null };
    expect(game.owner).toBe('club-a');
    const ofA = (await (await call(base, 'GET', '/games?owner=club-a')).json()) as { items: { id: number }[] };
    expect(ofA.items.map((item) => item.id)).toEqual([gameOfA]);
    const ofB = (await (await call(base, 'GET', '/games?owner=club-b')).json()) as { items: unknown[] };
    expect(ofB.items).toEqual([]);
    const bad = await call(base, 'GET', '/games?owner=Club%20A');
    expect(bad.status).toBe(400);
    // Every route that takes the search filters takes this one: exports and position searches.
    const exported = await (await call(base, 'GET', '/games/export?owner=club-a')).text();
    expect(exported.trim().split('\n').map((line) => (JSON.parse(line) as { id?: number }).id)).toEqual([gameOfA]);
    const reaching = async (owner: string) =>
      ((await (await call(base, 'GET', `/positions/games?game=${gameOfA}&ply=0&owner=${owner}`)).json()) as { items: { id: number }[] }).items.map((item) => item.id);
    expect(await reaching('club-a')).toEqual([gameOfA]);
    expect(await reaching('club-b')).toEqual([]);
  });

  it('records the owner of a kept file and of each of its games', async () => {
    const collection = Buffer.concat([sgf('Collection one'), sgf('Collection two')]);
    const answer = await call(base, 'POST', '/uploads', clubB.token, collection);
    expect(answer.status).toBe(201);
    const upload = (await answer.json()) as { owner: string | null; games: { gameId: number }[] };
    expect(upload.owner).toBe('club-b');
    expect(upload.games).toHaveLength(2);
    for (const { gameId } of upload.games) {
      expect(((await (await call(base, 'GET', `/games/${gameId}`)).json()) as { owner: string | null }).owner).toBe('club-b');
      expect((await call(base, 'DELETE', `/games/${gameId}`, clubB.token)).status).toBe(204);
    }
  });

  it("refuses club B's delete and re-index of club A's game with 403, and the audit trail records both", async () => {
    const deletion = await call(base, 'DELETE', `/games/${gameOfA}`, clubB.token);
    expect(deletion.status).toBe(403);
    expect((await problemOf(deletion)).code).toBe('auth.forbidden');
    const reindex = await call(base, 'POST', `/games/${gameOfA}/reindex`, clubB.token);
    expect(reindex.status).toBe(403);
    expect((await problemOf(reindex)).code).toBe('auth.forbidden');
    expect((await call(base, 'GET', `/games/${gameOfA}`)).status).toBe(200);

    const deleted = await auditOf(base, deletion.headers.get('x-request-id')!);
    expect(deleted).toMatchObject({ account: 'club-b', tokenId: String(clubB.id), action: 'game.delete', target: String(gameOfA), status: 403 });
    const reindexed = await auditOf(base, reindex.headers.get('x-request-id')!);
    expect(reindexed).toMatchObject({ account: 'club-b', tokenId: String(clubB.id), action: 'game.reindex', target: String(gameOfA), status: 403 });
  });

  it("re-indexes only the club's own games with POST /reindex, and refuses another club's", async () => {
    const upload = await call(base, 'POST', '/games', clubB.token, sgf('Reindex'));
    expect(upload.status).toBe(201);
    const gameOfB = ((await upload.json()) as { id: number }).id;
    const own = await call(base, 'POST', '/reindex', clubB.token);
    expect(own.status).toBe(200);
    // Two games in the archive, one of them club B's.
    expect(((await own.json()) as { reindexed: number }).reindexed).toBe(1);
    const others = await call(base, 'POST', '/reindex?owner=club-a', clubB.token);
    expect(others.status).toBe(403);
    expect((await problemOf(others)).code).toBe('auth.forbidden');
    const byAdmin = await call(base, 'POST', '/reindex', ADMIN_KEY);
    expect(((await byAdmin.json()) as { reindexed: number }).reindexed).toBe(2);
    expect((await call(base, 'DELETE', `/games/${gameOfB}`, clubB.token)).status).toBe(204);
  });

  it('refuses a token without games:delete with 403 auth.scope, and a write without a token with 401', async () => {
    const scoped = await call(base, 'DELETE', `/games/${gameOfA}`, writerOnly.token);
    expect(scoped.status).toBe(403);
    const problem = await problemOf(scoped);
    expect(problem.code).toBe('auth.scope');
    expect(problem.detail).toContain('games:delete');
    const anonymous = await call(base, 'POST', '/games', undefined, sgf('Anonymous'));
    expect(anonymous.status).toBe(401);
    expect((await problemOf(anonymous)).code).toBe('auth.required');
    const audited = await auditOf(base, anonymous.headers.get('x-request-id')!);
    expect(audited).toMatchObject({ account: null, tokenId: null, action: 'game.upload', status: 401 });
    // Only admins manage tokens and read the audit trail.
    expect((await problemOf(await call(base, 'GET', '/tokens', clubA.token))).code).toBe('auth.scope');
    expect((await call(base, 'GET', '/audit', clubA.token)).status).toBe(403);
  });

  it('lets an admin delete any game; the game is gone and the delete is recorded', async () => {
    const upload = await call(base, 'POST', '/games', clubA.token, sgf('Admin'));
    const id = ((await upload.json()) as { id: number }).id;
    const deletion = await call(base, 'DELETE', `/games/${id}`, ADMIN_KEY);
    expect(deletion.status).toBe(204);
    expect((await call(base, 'GET', `/games/${id}`)).status).toBe(404);
    const entry = await auditOf(base, deletion.headers.get('x-request-id')!);
    expect(entry).toMatchObject({ account: 'admin', action: 'game.delete', target: String(id), status: 204 });
    expect(entry.tokenId).toMatch(/^key:[0-9a-f]{16}$/);
  });

  it('revokes a token at once: it answers 401 auth.invalid, and it is no longer listed', async () => {
    const token = await makeToken(base, 'club-c', ['games:write']);
    expect((await call(base, 'POST', '/games', token.token, sgf('Before revocation'))).status).toBe(201);
    const revoked = await call(base, 'DELETE', `/tokens/${token.id}`, ADMIN_KEY);
    expect(revoked.status).toBe(204);
    const after = await call(base, 'POST', '/games', token.token, sgf('After revocation'));
    expect(after.status).toBe(401);
    expect((await problemOf(after)).code).toBe('auth.invalid');
    // Reads with a revoked token are refused too: the credential is wrong, whatever the route.
    expect((await call(base, 'GET', '/games', token.token)).status).toBe(401);
    const items = ((await (await call(base, 'GET', '/tokens', ADMIN_KEY)).json()) as { items: { id: number }[] }).items;
    expect(items.map((item) => item.id)).not.toContain(token.id);
    expect((await call(base, 'DELETE', `/tokens/${token.id}`, ADMIN_KEY)).status).toBe(404);
    const entry = await auditOf(base, revoked.headers.get('x-request-id')!);
    expect(entry).toMatchObject({ account: 'admin', action: 'token.revoke', target: String(token.id), status: 204 });
  });

  it('stops honouring a token at its expiry', async () => {
    const token = await makeToken(base, 'club-d', ['games:write'], { expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect((await call(base, 'POST', '/games', token.token, sgf('Before expiry'))).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1700));
    const late = await call(base, 'POST', '/games', token.token, sgf('After expiry'));
    expect(late.status).toBe(401);
    const problem = await problemOf(late);
    expect(problem.code).toBe('auth.invalid');
    expect(problem.detail).toContain('expired');
  });

  it('refuses bad token requests with 400 and unknown ids with 404', async () => {
    const cases: [object, RegExp][] = [
      [{ account: 'club-a', name: 'x', scopes: ['games:everything'] }, /scope/],
      [{ account: '', name: 'x', scopes: ['games:write'] }, /account/],
      [{ account: 'club-a', name: 'x', scopes: ['games:write'], expiresAt: '2020-01-01T00:00:00Z' }, /expiresAt must be in the future/],
      [{ account: 'club-a', name: 'n'.repeat(201), scopes: ['games:write'] }, /name/],
      [{ account: 'club-a', name: 'x', scopes: [] }, /scopes/],
    ];
    for (const [body, detail] of cases) {
      const answer = await call(base, 'POST', '/tokens', ADMIN_KEY, body);
      expect(answer.status).toBe(400);
      const problem = await problemOf(answer);
      expect(problem.code).toBe('request.invalid');
      expect(problem.detail).toMatch(detail);
    }
    expect((await call(base, 'DELETE', '/tokens/999999', ADMIN_KEY)).status).toBe(404);
    expect((await call(base, 'DELETE', '/tokens/abc', ADMIN_KEY)).status).toBe(400);
  });

  it('refuses a token in the query string with 401, whatever the route', async () => {
    for (const path of [`/games?token=${clubA.token}`, `/games/${gameOfA}?access_token=${clubA.token}`]) {
      const answer = await call(base, 'GET', path);
      expect(answer.status).toBe(401);
      expect((await problemOf(answer)).code).toBe('auth.invalid');
    }
  });

  it('pages the audit trail newest first, filtered by account and action', async () => {
    const first = (await (await call(base, 'GET', '/audit?account=club-b&limit=1', ADMIN_KEY)).json()) as { items: AuditEntry[]; next: string | null };
    expect(first.items).toHaveLength(1);
    expect(first.next).not.toBeNull();
    const second = (await (await call(base, 'GET', `/audit?account=club-b&limit=1&cursor=${first.next}`, ADMIN_KEY)).json()) as { items: AuditEntry[] };
    expect(second.items[0].id).toBeLessThan(first.items[0].id);
    const deletes = (await (await call(base, 'GET', '/audit?action=game.delete&limit=500', ADMIN_KEY)).json()) as { items: AuditEntry[] };
    expect(deletes.items.length).toBeGreaterThanOrEqual(3);
    expect(deletes.items.every((item) => item.action === 'game.delete')).toBe(true);
    const ids = deletes.items.map((item) => item.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const future = (await (await call(base, 'GET', `/audit?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, ADMIN_KEY)).json()) as { items: unknown[] };
    expect(future.items).toEqual([]);
  });
});

describe('accounts: a write the rate limits refuse', () => {
  let archive: TestArchive;
  beforeAll(async () => {
    archive = await startArchive({ API_KEYS: ADMIN_KEY, RATE_LIMIT_EXEMPT_LOOPBACK: 'false', RATE_LIMIT_KEY_WRITES_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('is in the audit trail with its 429, its account and its token', async () => {
    // The admin's token creation is the key's first write, the club's upload its own first.
    const club = await makeToken(archive.baseUrl, 'club-a', ['games:write', 'games:delete']);
    expect((await call(archive.baseUrl, 'POST', '/games', club.token, sgf('Limited 1'))).status).toBe(201);
    expect((await call(archive.baseUrl, 'POST', '/games', club.token, sgf('Limited 2'))).status).toBe(201);
    const refused = await call(archive.baseUrl, 'POST', '/games', club.token, sgf('Limited 3'));
    expect(refused.status).toBe(429);
    const deletion = await call(archive.baseUrl, 'DELETE', '/games/1', club.token);
    expect(deletion.status).toBe(429);
    expect(await auditOf(archive.baseUrl, refused.headers.get('x-request-id')!)).toMatchObject({ account: 'club-a', tokenId: String(club.id), action: 'game.upload', status: 429 });
    expect(await auditOf(archive.baseUrl, deletion.headers.get('x-request-id')!)).toMatchObject({ account: 'club-a', action: 'game.delete', target: '1', status: 429 });
  });
});

describe('accounts: PUBLIC_READS=false', () => {
  let archive: TestArchive;
  beforeAll(async () => {
    archive = await startArchive({ API_KEYS: ADMIN_KEY, PUBLIC_READS: 'false' });
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('needs a token of any scope for every read, but not for /health', async () => {
    const anonymous = await call(archive.baseUrl, 'GET', '/games');
    expect(anonymous.status).toBe(401);
    expect((await problemOf(anonymous)).code).toBe('auth.required');
    expect((await call(archive.baseUrl, 'POST', '/positions/games', undefined, { family: 'go', board: ['.'] })).status).toBe(401);
    const reader = await makeToken(archive.baseUrl, 'club-a', ['games:write']);
    expect((await call(archive.baseUrl, 'GET', '/games', reader.token)).status).toBe(200);
    expect((await call(archive.baseUrl, 'GET', '/formats', reader.token)).status).toBe(200);
    expect((await call(archive.baseUrl, 'GET', '/health')).status).toBe(200);
  });
});

describe('accounts: settings', () => {
  it('refuses PUBLIC_READS=false and OPEN_ARCHIVE=false without API_KEYS, naming them', async () => {
    await expect(startArchive({ PUBLIC_READS: 'false' })).rejects.toThrow(/PUBLIC_READS/);
    await expect(startArchive({ OPEN_ARCHIVE: 'false' })).rejects.toThrow(/OPEN_ARCHIVE/);
    await expect(startArchive({ TOKEN_CACHE_MS: '60000' })).rejects.toThrow(/TOKEN_CACHE_MS/);
  });

  it('stays open without API_KEYS: writes need no token and the games have no owner', async () => {
    const archive = await startArchive({});
    try {
      const upload = await call(archive.baseUrl, 'POST', '/games', undefined, sgf('Open'));
      expect(upload.status).toBe(201);
      expect(((await upload.json()) as { owner: string | null }).owner).toBeNull();
    } finally {
      await archive.close();
    }
  });
});

describe('accounts: the built server', () => {
  let store: Awaited<ReturnType<typeof createStore>>;
  let server: RunningServer | undefined;
  afterEach(async () => {
    await stop(server);
    server = undefined;
  });
  afterAll(async () => {
    await store?.remove();
  });

  it('keeps tokens over a restart, and its log names token ids but never a secret', async () => {
    store = await createStore();
    const settings = { ...store.settings, API_KEYS: ADMIN_KEY, LOG_LEVEL: 'log' };
    server = await startServer(settings);
    const token = await makeToken(server.baseUrl, 'club-a', ['games:write', 'games:delete']);
    const upload = await call(server.baseUrl, 'POST', '/games', token.token, sgf('Restart'));
    expect(upload.status).toBe(201);
    expect((await call(server.baseUrl, 'GET', `/games?token=${token.token}`)).status).toBe(401);
    expect((await call(server.baseUrl, 'GET', '/games', `tabula_${token.id}_${'x'.repeat(43)}`)).status).toBe(401);
    await stop(server);
    const firstLog = server.output();
    server = await startServer(settings);
    const id = ((await upload.json()) as { id: number }).id;
    expect((await call(server.baseUrl, 'DELETE', `/games/${id}`, token.token)).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = firstLog + server.output();
    // The secret is base64url and may itself hold '_': cut the known prefix, not at the last '_'.
    const secret = token.token.slice(`tabula_${token.id}_`.length);
    expect(secret).toHaveLength(43);
    expect(log).toContain(`DELETE /games/${id} 204`);
    expect(log).toMatch(new RegExp(`DELETE /games/${id} 204 .* token ${token.id} `));
    expect(log).toContain('/games?token=[hidden]');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(ADMIN_KEY);
  }, 120_000);
});

const onServer = serverUrl ? describe : describe.skip;

onServer('accounts: two nodes over one database (only on a PostgreSQL server)', () => {
  it('sees a revocation made on the other node within TOKEN_CACHE_MS', async () => {
    const database = await createScratchDatabase(serverUrl!, 'tabula_test_accounts_nodes');
    const nodes: RunningServer[] = [];
    try {
      for (let i = 0; i < 2; i++) nodes.push(await startServer({ DATABASE_URL: database.url, API_KEYS: ADMIN_KEY, TOKEN_CACHE_MS: '1000', ANALYSIS_THREADS: '1' }));
      const token = await makeToken(nodes[0].baseUrl, 'club-a', ['games:write']);
      // The second node reads the token and keeps it for up to a second.
      expect((await call(nodes[1].baseUrl, 'GET', '/games', token.token)).status).toBe(200);
      expect((await call(nodes[0].baseUrl, 'DELETE', `/tokens/${token.id}`, ADMIN_KEY)).status).toBe(204);
      const revokedAt = Date.now();
      let refusedAfter: number | undefined;
      while (Date.now() - revokedAt < 5000) {
        if ((await call(nodes[1].baseUrl, 'GET', '/games', token.token)).status === 401) {
          refusedAfter = Date.now() - revokedAt;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(refusedAfter).toBeDefined();
      expect(refusedAfter!).toBeLessThan(1500);
    } finally {
      for (const node of nodes) await stop(node);
      await database.drop();
    }
  }, 120_000);
});
