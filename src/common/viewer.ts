import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express, NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markAsViewerPage } from './download-headers.js';
import { makeProblem } from './problem-details.js';
import { sendProblem } from './problem-details.filter.js';

/**
 * The web viewer (web/, built by `npm run build` into dist/web) served beside the API: its page at
 * `/` and its assets under `/assets/`, nothing else. The viewer routes by the hash (`#/games/12`),
 * so no viewer path ever shadows an API path, and any other unknown path stays the API's
 * problem+json 404. Plain Express routes: they are not part of the OpenAPI document. The page carries
 * a Content-Security-Policy (download-headers.ts); the Swagger UI at /docs, whose page has inline
 * styles and a script of its own, is left without one.
 */
export function serveViewer(app: NestExpressApplication, directory = viewerDirectory()): void {
  const page = join(directory, 'index.html');
  (app.getHttpAdapter().getInstance() as Express).get('/', (request: Request, response: Response, next: NextFunction) => {
    // The page names the hashed assets of the latest build: always asked for again (304 while unchanged).
    // Its Content-Security-Policy lets only its own files run, and no other site frame it.
    markAsViewerPage(response);
    response.sendFile(page, { headers: { 'Cache-Control': 'no-cache' }, dotfiles: 'deny' }, (error?: NodeJS.ErrnoException) => {
      if (!error) return;
      if (error.code !== 'ENOENT') return next(error);
      const detail = 'the web viewer is not built here: run `npm run build` (the API works without it; see /docs)';
      sendProblem(request, response, makeProblem(404, 'resource.not_found', detail));
    });
  });
  // Asset names carry a hash of their content: a name never serves other bytes, so caches keep them a year.
  app.useStaticAssets(join(directory, 'assets'), {
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    index: false,
    redirect: false,
    dotfiles: 'deny',
    setHeaders: (response) => response.setHeader('X-Content-Type-Options', 'nosniff'),
  });
}

/** dist/web of this package, whether this module runs from dist/ (the build) or from src/ (the tests). */
export function viewerDirectory(): string {
  let root = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  return join(root, 'dist', 'web');
}
