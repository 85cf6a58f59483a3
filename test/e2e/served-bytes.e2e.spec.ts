import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { viewerDirectory } from '../../src/common/viewer.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * What the archive tells browsers about the bytes it serves: uploads come back as downloads that can
 * run nothing (nosniff, a sandbox, and never an active type such as HTML or SVG as the uploader
 * declared it), the board picture is the archive's own SVG with a policy against script, the
 * viewer's page has its Content-Security-Policy, and CORS answers only the sites CORS_ORIGINS lists.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));
// A real GNU Go game (UTF-8, plain ASCII), given a root comment holding a script: what someone who
// wanted the archive's origin to run their script would upload, declared text/html.
const GNUGO_9X9 = fixture('fixtures/realdata/go/gnugo_regression_games/9x9-1.sgf');
const withScript = (sgf: Buffer): Buffer => Buffer.from(sgf.toString('utf8').replace(/^\(;/, '(;C[<script>document.title = "ran"</script>]'), 'utf8');
const SCRIPTED = withScript(GNUGO_9X9);
// Another (GNU Go against Aya, 2006), for the whole-file upload route.
const SCRIPTED_UPLOAD = withScript(fixture('fixtures/realdata/go/gnugo_regression_games/olympiad2006/9x9/gnu-aya.sgf'));
// A real NNGS game in Latin-1 ("h\xf6rru" in a comment): not UTF-8.
const LATIN1 = fixture('fixtures/realdata/go/gnugo_regression_games/nicklas/nicklas12.sgf');
// GoFans example 2.2, an XML game file.
const GOFANS = fixture('fixtures/gofans-examples/ex_2.2.xml');
const LISTED = 'https://club.example';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request sent by node:http: a browser's preflight is no operation of the API (the spec check would refuse it), and it names its Origin. */
function send(baseUrl: string, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, baseUrl), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

const listOf = (header: string | string[] | undefined): string[] => String(header ?? '').split(',').map((item) => item.trim().toLowerCase()).filter((item) => item !== '');

describe('bytes served to browsers', () => {
  let archive: TestArchive;
  const ids: Record<string, number> = {};

  const uploadAs = async (path: string, bytes: Buffer, mediaType: string, filename: string): Promise<{ id: number; gameId: number }> => {
    const answer = await post(archive, `${path}?filename=${encodeURIComponent(filename)}`, bytes, { 'Content-Type': mediaType });
    expect([filename, answer.status]).toEqual([filename, 201]);
    const body = (await answer.json()) as { id: number; games?: { gameId: number }[] };
    return { id: body.id, gameId: body.games ? body.games[0].gameId : body.id };
  };
  const download = async (path: string) => {
    const answer = await fetch(`${archive.baseUrl}${path}`);
    expect([path, answer.status]).toEqual([path, 200]);
    return { headers: answer.headers, body: Buffer.from(await answer.arrayBuffer()) };
  };
  const expectDownloadHeaders = (headers: Headers) => {
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('content-security-policy')).toBe('sandbox');
  };

  beforeAll(async () => {
    archive = await startArchive({ CORS_ORIGINS: `${LISTED}, http://localhost:5173` });
    ids.html = (await uploadAs('/games', SCRIPTED, 'text/html', 'page.html')).id;
    ids.shouting = (await uploadAs('/games', GNUGO_9X9, 'Application/XHTML+XML; Charset=UTF-8', '9x9-1.sgf')).id;
    ids.svgLatin1 = (await uploadAs('/games', LATIN1, 'image/svg+xml', 'nicklas12.sgf')).id;
    ids.gofans = (await uploadAs('/games', GOFANS, 'application/xml', 'ex_2.2.xml')).id;
    const upload = await uploadAs('/uploads', SCRIPTED_UPLOAD, 'text/html; charset=utf-8', 'page-collection.html');
    ids.upload = upload.id;
    ids.uploadGame = upload.gameId;
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('serves an upload declared text/html as plain UTF-8 text, with nosniff and a sandbox, its bytes unchanged', async () => {
    const { headers, body } = await download(`/games/${ids.html}/raw`);
    expect(headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expectDownloadHeaders(headers);
    expect(headers.get('content-disposition')).toMatch(/^attachment; filename="?page\.html"?$/);
    expect(body.equals(SCRIPTED)).toBe(true);
    expect(body.toString('utf8')).toContain('<script>');
  });

  it('keeps the type as uploaded in the game and its collection (what the download serves is decided when it is served)', async () => {
    const game = (await (await fetch(`${archive.baseUrl}/games/${ids.html}`)).json()) as { mediaType: string };
    expect(game.mediaType).toBe('text/html');
    const upload = (await (await fetch(`${archive.baseUrl}/uploads/${ids.upload}`)).json()) as { mediaType: string };
    expect(upload.mediaType).toBe('text/html; charset=utf-8');
  });

  it('compares types without case or parameters: XHTML in capitals is an active type too', async () => {
    const { headers, body } = await download(`/games/${ids.shouting}/raw`);
    expect(headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expectDownloadHeaders(headers);
    expect(body.equals(GNUGO_9X9)).toBe(true);
  });

  it('serves active-typed bytes that are not UTF-8 as application/octet-stream', async () => {
    const { headers, body } = await download(`/games/${ids.svgLatin1}/raw`);
    expect(headers.get('content-type')).toBe('application/octet-stream');
    expectDownloadHeaders(headers);
    expect(body.equals(LATIN1)).toBe(true);
  });

  it('serves a whole upload declared text/html, and its game, as plain text with the same headers', async () => {
    const whole = await download(`/uploads/${ids.upload}/raw`);
    expect(whole.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expectDownloadHeaders(whole.headers);
    expect(whole.body.equals(SCRIPTED_UPLOAD)).toBe(true);
    const game = await download(`/games/${ids.uploadGame}/raw`);
    expect(game.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expectDownloadHeaders(game.headers);
  });

  it('still serves a GoFans XML game as application/xml, with nosniff and a sandbox', async () => {
    const { headers, body } = await download(`/games/${ids.gofans}/raw`);
    expect(headers.get('content-type')).toBe('application/xml');
    expectDownloadHeaders(headers);
    expect(body.equals(GOFANS)).toBe(true);
  });

  it('sends the same headers with files written from uploads: regenerated, converted, and every bulk export', async () => {
    const regenerated = await download(`/games/${ids.gofans}/regenerated`);
    expect(regenerated.headers.get('content-type')).toMatch(/^application\/xml/);
    expectDownloadHeaders(regenerated.headers);
    const converted = await download(`/games/${ids.html}/export?format=${encodeURIComponent('GoFans/2.2')}`);
    expect(converted.headers.get('content-type')).toMatch(/^application\/xml/);
    expectDownloadHeaders(converted.headers);
    for (const accept of ['application/zip', 'application/x-tar', 'application/x-go-sgf', 'application/x-ndjson']) {
      const answer = await fetch(`${archive.baseUrl}/games/export${accept === 'application/x-go-sgf' ? '?family=go' : ''}`, { headers: { Accept: accept } });
      expect([accept, answer.status]).toEqual([accept, 200]);
      expect(answer.headers.get('content-type')).toMatch(new RegExp(`^${accept.replace(/[+.]/g, '\\$&')}`));
      expectDownloadHeaders(answer.headers);
      await answer.arrayBuffer();
    }
  });

  it('keeps the board picture image/svg+xml, with nosniff and a policy that lets it run nothing', async () => {
    const { headers, body } = await download(`/games/${ids.gofans}/board.svg`);
    expect(headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    const policy = headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/script-src/);
    // Drawn with presentation attributes: nothing the policy would refuse.
    expect(body.toString('utf8')).toMatch(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(body.toString('utf8')).not.toMatch(/<style|style=|<script|href=/);
  });

  (existsSync(join(viewerDirectory(), 'index.html')) ? it : it.skip)(
    "serves the viewer's page with a Content-Security-Policy that allows no inline script and no framing",
    async () => {
      const { headers } = await download('/');
      const policy = (headers.get('content-security-policy') ?? '').split(';').map((directive) => directive.trim());
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy.join(';')).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(headers.get('referrer-policy')).toBe('no-referrer');
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      // The built page holds no inline script for the policy to refuse.
      const page = readFileSync(join(viewerDirectory(), 'index.html'), 'utf8');
      expect([...page.matchAll(/<script\b[^>]*>/g)].every(([tag]) => /\bsrc=/.test(tag))).toBe(true);
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page)![1];
      expect((await download(asset)).headers.get('x-content-type-options')).toBe('nosniff');
    },
  );

  it('leaves the Swagger UI at /docs without that policy (its page has inline styles and scripts of its own)', async () => {
    const docs = await send(archive.baseUrl, 'GET', '/docs', {});
    expect(docs.status).toBe(200);
    expect(docs.headers['content-security-policy']).toBeUndefined();
  });

  it('answers a preflight from a listed origin with the methods, headers and exposed headers it allows', async () => {
    const answer = await send(archive.baseUrl, 'OPTIONS', '/games', {
      Origin: LISTED,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type, x-request-id',
    });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(LISTED);
    expect(listOf(answer.headers['access-control-allow-methods'])).toEqual(expect.arrayContaining(['get', 'post', 'delete']));
    expect(listOf(answer.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['authorization', 'content-type', 'if-none-match', 'x-request-id']));
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    expect(listOf(answer.headers.vary)).toContain('origin');
    // An answer to the listed page itself says which of its headers the page may read.
    const read = await send(archive.baseUrl, 'GET', `/games/${ids.gofans}/raw`, { Origin: LISTED });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe(LISTED);
    expect(listOf(read.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['location', 'etag', 'x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'link']),
    );
  });

  it('gives an origin it does not list no Access-Control-Allow-Origin, on preflights and on reads', async () => {
    for (const origin of ['https://elsewhere.example', 'https://club.example.evil.example', 'http://club.example']) {
      const preflight = await send(archive.baseUrl, 'OPTIONS', '/games', { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' });
      expect([origin, preflight.headers['access-control-allow-origin']]).toEqual([origin, undefined]);
      const read = await send(archive.baseUrl, 'GET', `/games/${ids.gofans}`, { Origin: origin });
      expect(read.status).toBe(200);
      expect([origin, read.headers['access-control-allow-origin']]).toEqual([origin, undefined]);
    }
  });
});

describe('an archive without CORS_ORIGINS', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive();
  });
  afterAll(async () => {
    await archive?.close();
  });

  it('lets no other site call it: no preflight is allowed, no answer names an origin', async () => {
    const preflight = await send(archive.baseUrl, 'OPTIONS', '/games', { Origin: LISTED, 'Access-Control-Request-Method': 'POST' });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    const read = await send(archive.baseUrl, 'GET', '/games', { Origin: LISTED });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
  });
});
