import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveViewer, viewerDirectory } from '../../src/common/viewer.js';
import { startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * The web viewer's files as the archive serves them: the page at `/` (never cached without asking),
 * its hashed assets (cached for long), nothing else; API paths and 404s stay the API's. The viewer
 * itself is driven in a browser by test/browser/viewer.browser.spec.ts.
 */
const built = existsSync(join(viewerDirectory(), 'index.html'));

describe('the web viewer\'s files', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive();
  });
  afterAll(async () => {
    await archive.close();
  });

  (built ? it : it.skip)('serves the page at / with no-cache, and its hashed assets for a year', async () => {
    const page = await fetch(`${archive.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
    // A script and a stylesheet, named by their content.
    expect(assets.some((path) => /\.js$/.test(path))).toBe(true);
    expect(assets.some((path) => /\.css$/.test(path))).toBe(true);
    for (const path of assets) {
      const asset = await fetch(`${archive.baseUrl}${path}`);
      expect([path, asset.status]).toEqual([path, 200]);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await asset.arrayBuffer()).equals(readFileSync(join(viewerDirectory(), path)))).toBe(true);
    }
    // No-cache means asking again: the page carries a validator to ask with.
    expect(page.headers.get('etag')).toBeTruthy();
  });

  it('leaves every other path to the API: unknown assets and pages are problem+json 404s', async () => {
    for (const path of ['/assets/nothing-here.js', '/assets/', '/index.html', '/games/12/viewer', '/web/index.html']) {
      const answer = await fetch(`${archive.baseUrl}${path}`);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect((await fetch(`${archive.baseUrl}/health`)).status).toBe(200);
  });

  it('is not in the OpenAPI document', async () => {
    const spec = (await (await fetch(`${archive.baseUrl}/docs/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).not.toContain('/');
    expect(Object.keys(spec.paths).some((path) => path.startsWith('/assets'))).toBe(false);
  });
});

describe('an archive whose viewer is not built', () => {
  @Module({})
  class Bare {}
  let app: NestExpressApplication;
  let baseUrl: string;

  beforeAll(async () => {
    app = await NestFactory.create<NestExpressApplication>(Bare, { logger: false });
    serveViewer(app, '/nonexistent/tabula-viewer');
    await app.listen(0, '127.0.0.1');
    baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers / with a problem+json 404 that says how to build it', async () => {
    const answer = await fetch(`${baseUrl}/`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await answer.json()) as { code: string; detail: string; instance: string };
    expect(problem.code).toBe('resource.not_found');
    expect(problem.detail).toContain('npm run build');
    expect(problem.instance).toBe('/');
  });
});
