import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Request } from 'playwright-core';
import ts from 'typescript';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { describeIfThere } from '../support/optional.js';
import { chromiumThere, needViewer, watchedPage } from './browser-support.js';
import type { WatchedPage } from './browser-support.js';

/**
 * The viewer on an archive that keeps its games private (PUBLIC_READS=false) and hands out tokens:
 * it asks for a token when a read is refused, keeps it in the tab's sessionStorage (not in
 * localStorage), sends it to the archive — pictures and uploads included — and to no other origin,
 * forgets it on "Sign out" and when the archive calls it invalid, and shows who owns a game.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));
const ADMIN = 'admin-key';
const TOKEN_KEY = 'tabula.token';
const ARTIFACTS = new URL('../artifacts/', import.meta.url);

/** A server on another origin that notes the headers of every request it gets, and lets any origin read its answers. */
async function elsewhereServer(): Promise<{ server: Server; origin: string; seen: { method: string; url: string; headers: IncomingHttpHeaders }[] }> {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    // A preflight is granted whatever it asks, so that a leaked Authorization would arrive here and be seen.
    response.writeHead(request.method === 'OPTIONS' ? 204 : 200, {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'authorization, content-type',
      'Content-Type': 'text/plain',
    });
    response.end(request.method === 'OPTIONS' ? undefined : 'elsewhere');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describeIfThere('the web viewer on an archive with private reads and tokens', chromiumThere, () => {
  let archive: TestArchive;
  let watched: WatchedPage;
  let page: Page;
  let clubToken: string;
  let gameId: number;
  let elsewhere: Awaited<ReturnType<typeof elsewhereServer>>;
  /** Every request the page made (since the last reset). */
  const requests: Request[] = [];
  /** Where those of `requests` whose URL starts with `prefix` went, and the Authorization each carried. */
  const sent = async (prefix = '') =>
    Promise.all(requests.filter((r) => r.url().startsWith(prefix)).map(async (r) => ({ url: r.url(), authorization: (await r.allHeaders()).authorization })));

  const storage = () =>
    page.evaluate((key) => ({ session: sessionStorage.getItem(key), local: Object.entries(localStorage) }), TOKEN_KEY);
  const shoot = (name: string) => page.screenshot({ path: new URL(name, ARTIFACTS).pathname, fullPage: true });
  const gate = () => page.getByRole('heading', { name: 'A token is needed' });
  const tokenField = () => page.getByLabel('Token', { exact: true });

  beforeAll(async () => {
    needViewer();
    mkdirSync(ARTIFACTS, { recursive: true });
    archive = await startArchive({ API_KEYS: ADMIN, PUBLIC_READS: 'false' });
    const made = await post(archive, '/tokens', JSON.stringify({ account: 'club-a', name: 't', scopes: ['games:write'] }), {
      Authorization: `Bearer ${ADMIN}`,
      'Content-Type': 'application/json',
    });
    expect(made.status).toBe(201);
    clubToken = ((await made.json()) as { token: string }).token;
    const uploaded = await post(archive, '/games?filename=ex_2.2.xml', fixture('fixtures/gofans-examples/ex_2.2.xml'), {
      Authorization: `Bearer ${clubToken}`,
      'Content-Type': 'application/xml',
    });
    expect(uploaded.status).toBe(201);
    gameId = ((await uploaded.json()) as { id: number }).id;
    elsewhere = await elsewhereServer();
    watched = await watchedPage(() => false);
    page = watched.page;
    page.on('request', (request) => requests.push(request));
  });

  afterAll(async () => {
    await watched?.browser.close();
    await new Promise((resolve) => elsewhere?.server.close(resolve));
    await archive?.close();
  });

  it('asks for a token first, then shows the game and its owner with the token it keeps for the tab', async () => {
    await page.goto(`${archive.baseUrl}/#/games/${gameId}`);
    await gate().waitFor();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('PUBLIC_READS=false');
    await expect(tokenField().getAttribute('type')).resolves.toBe('password');
    await expect(page.locator('.token-form').innerText()).resolves.toContain('Kept for this tab only');
    expect(await page.locator('article.game').count()).toBe(0);
    await shoot('token-gate.png');
    // The refused reads carried no Authorization: there was no token to send.
    const refused = await sent(`${archive.baseUrl}/games`);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((r) => r.authorization !== undefined)).toEqual([]);
    // The browser reports the 401 answers in the console; nothing else may be there.
    expect(watched.complaints.filter((line) => !/status of 401/.test(line))).toEqual([]);
    watched.complaints.length = 0;

    requests.length = 0;
    await tokenField().fill(clubToken);
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect(page.locator('.game .owner').innerText()).resolves.toBe('Owner: club-a');
    // The board picture, fetched with the token, has loaded.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.board img');
      return img !== null && img.src.startsWith('blob:') && img.complete && img.naturalWidth > 0;
    });
    expect(await storage()).toEqual({ session: clubToken, local: [] });
    await shoot('token-game.png');
    // Every request to the archive's API after that carried the token.
    const api = await sent(`${archive.baseUrl}/games`);
    expect(api.length).toBeGreaterThan(0);
    expect(api.filter((r) => r.authorization !== `Bearer ${clubToken}`)).toEqual([]);

    // A download link fetches with the token too: the bytes as uploaded.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'The file as uploaded' }).click()]);
    expect(download.suggestedFilename()).toBe('ex_2.2.xml');
    expect(readFileSync((await download.path())!)).toEqual(fixture('fixtures/gofans-examples/ex_2.2.xml'));

    // The tab keeps it across a reload; another tab has none and is asked again.
    await page.reload();
    await expect(page.locator('.game .owner').innerText()).resolves.toBe('Owner: club-a');
    const other = await page.context().newPage();
    await other.goto(`${archive.baseUrl}/#/games/${gameId}`);
    await other.getByRole('heading', { name: 'A token is needed' }).waitFor();
    await other.close();
  });

  it('lists the owner with each game found', async () => {
    await page.goto(`${archive.baseUrl}/#/`);
    await page.locator('.result').first().waitFor();
    await expect(page.locator('.result').first().innerText()).resolves.toContain('owner club-a');
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img.thumb')].every((img) => img.complete && img.naturalWidth > 0));
    // The game page's owner links to the owner's games.
    await page.locator('.result a').first().click();
    await page.locator('.game .owner a').click();
    await page.waitForFunction(() => document.querySelector('[data-search]')?.getAttribute('data-search') === 'owner=club-a');
    expect(await page.locator('.result').count()).toBe(1);
  });

  it('sends the token to its own origin only', async () => {
    // The viewer's credentials module (web/src/credentials.ts, which imports nothing) loaded into the page as it is.
    const source = readFileSync(new URL('../../web/src/credentials.ts', import.meta.url), 'utf8');
    const code = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    // The check loads a module from a blob: and fetches another origin, both of which the viewer's own
    // Content-Security-Policy refuses: it runs in a page of the same origin with the policy bypassed,
    // holding the same token (sessionStorage is per tab, so it is copied over).
    const stored = await page.evaluate(() => Object.entries(sessionStorage));
    const probing = await watched.browser.newContext({ bypassCSP: true });
    const probePage = await probing.newPage();
    await probePage.goto(`${archive.baseUrl}/`);
    await probePage.evaluate((entries) => entries.forEach(([key, value]) => sessionStorage.setItem(key, value)), stored);
    const outcome = await probePage.evaluate(
      async ({ code, elsewhere, own }) => {
        const module = await import(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
        const authorization = (url: string, headers?: HeadersInit) => module.withToken(new Request(url, { headers })).headers.get('Authorization');
        const probe = await module.fetchWithToken(`${elsewhere}/probe`);
        return {
          held: module.token() !== '',
          own: authorization(`${own}/games`),
          relative: authorization('/games'),
          other: authorization(`${elsewhere}/games`),
          // Set by someone else on a request to another origin: taken off.
          otherSetByHand: authorization(`${elsewhere}/games`, { Authorization: 'Bearer by-hand' }),
          // A path that is in fact another host.
          protocolRelative: module.isOwnOrigin(`//${new URL(elsewhere).host}/games`),
          probe: await probe.text(),
        };
      },
      { code, elsewhere: elsewhere.origin, own: archive.baseUrl },
    );
    await probing.close();
    expect(outcome).toEqual({
      held: true,
      own: `Bearer ${clubToken}`,
      relative: `Bearer ${clubToken}`,
      other: null,
      otherSetByHand: null,
      protocolRelative: false,
      probe: 'elsewhere',
    });
    // The other origin got a plain GET: no Authorization, and no preflight asking to send one.
    expect(elsewhere.seen.map((r) => [r.method, r.url, r.headers.authorization, r.headers['access-control-request-headers']])).toEqual([['GET', '/probe', undefined, undefined]]);
    // Nor did the viewer itself ever send one anywhere but the archive.
    expect((await sent()).filter((r) => r.authorization !== undefined && !r.url.startsWith(`${archive.baseUrl}/`))).toEqual([]);
  });

  it('uploads with the token, the game then owned by its account', async () => {
    await page.goto(`${archive.baseUrl}/#/upload`);
    await expect(page.locator('.upload').innerText()).resolves.toContain('Uploads are sent with the token kept for this tab');
    await page.locator('input[type="file"]').setInputFiles(new URL('../fixtures/gofans-examples/ex_2.1.xml', import.meta.url).pathname);
    await page.locator('.uploaded a').first().waitFor();
    const id = Number((await page.locator('.uploaded a').first().getAttribute('href'))!.replace('#/games/', ''));
    const game = await fetch(`${archive.baseUrl}/games/${id}`, { headers: { Authorization: `Bearer ${ADMIN}` } });
    expect(((await game.json()) as { owner: string | null }).owner).toBe('club-a');
  });

  it('forgets the token on "Sign out", and one the archive calls invalid', async () => {
    await page.goto(`${archive.baseUrl}/#/games/${gameId}`);
    await page.locator('.game .owner').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await gate().waitFor();
    expect(await storage()).toEqual({ session: null, local: [] });
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

    // A token of the right shape that the archive does not know: refused (auth.invalid), and not kept.
    await tokenField().fill(`tabula_999_${'A'.repeat(43)}`);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('heading', { name: 'The token was refused' }).waitFor();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('not valid');
    expect(await storage()).toEqual({ session: null, local: [] });

    // A good one again: the game.
    await tokenField().fill(clubToken);
    await tokenField().press('Enter');
    await expect(page.locator('.game .owner').innerText()).resolves.toBe('Owner: club-a');
    expect(watched.complaints.filter((line) => !/status of 401/.test(line))).toEqual([]);
  });
});
