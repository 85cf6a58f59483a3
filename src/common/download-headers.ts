import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { Response } from 'express';
import { isUtf8 } from 'node:buffer';

/**
 * What the archive's answers tell browsers, so that nothing it serves runs as a page of its origin:
 * the bytes people uploaded, the board pictures it draws, the viewer's page, and which other sites'
 * pages may call the API.
 */

/**
 * Uploaded bytes (and files written from them) are downloads, never pages of this origin: opened
 * anyway, they are a sandbox (an opaque origin, no script, no form, no navigation of the window).
 */
export const DOWNLOAD_CSP = 'sandbox';

/** The board picture is the archive's own SVG: presentation attributes only, no script, nothing fetched. */
export const PICTURE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/**
 * The viewer's page: its script and stylesheet are files of its own (vite emits no inline script, and
 * Preact sets styles through the CSSOM, which style-src does not govern); pictures are its own, the
 * `data:` favicon, or `blob:` copies of pictures fetched with a token. No frame may hold it.
 */
export const VIEWER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const ORIGIN_LEAVES_NOTHING = 'no-referrer';

/**
 * Media types a browser runs, or shows as a document that may run script: HTML and XHTML, SVG, every
 * script type, and multipart (`x-mixed-replace` streams pages). XML stays XML (GoFans files are
 * `application/xml`): shown at all, it is shown in the sandbox of {@link DOWNLOAD_CSP}.
 */
const ACTIVE_SUBTYPE = /html|svg|script|^x-component$/;
const ACTIVE_TYPES = new Set(['application/hta']);
/** Types that make a browser guess what the bytes are (the MIME Sniffing standard's "unknown" types). */
const UNKNOWN_TYPES = new Set(['*/*', 'unknown/unknown', 'application/unknown']);
const TOKEN = "[!#$%&'*+.^_`|~0-9a-z-]+";
const ESSENCE = new RegExp(`^${TOKEN}/${TOKEN}$`);

/**
 * Whether a browser told `mediaType` might run the bytes or guess what they are: an active type (see
 * above), compared without case and parameters, an unknown type, or something that is no media type.
 */
export function isActiveMediaType(mediaType: string): boolean {
  const essence = mediaType.split(';')[0].trim().toLowerCase();
  if (!ESSENCE.test(essence) || UNKNOWN_TYPES.has(essence)) return true;
  const [type, subtype] = essence.split('/');
  return type === 'multipart' || ACTIVE_TYPES.has(essence) || ACTIVE_SUBTYPE.test(subtype);
}

/**
 * The media type uploaded bytes are served with: the one they were kept with, unless that is active
 * ({@link isActiveMediaType}); then plain UTF-8 text when they are valid UTF-8, else octet-stream.
 * What is stored does not change.
 */
export function servedMediaType(kept: string, bytes: Uint8Array): string {
  if (!isActiveMediaType(kept)) return kept;
  return isUtf8(bytes) ? 'text/plain; charset=utf-8' : 'application/octet-stream';
}

/** The headers of every download of uploaded bytes or of files written from them (raw, regenerated, converted, exported). */
export function markAsDownload(response: Response): void {
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Content-Security-Policy', DOWNLOAD_CSP);
}

/** The headers of a board picture (SVG or PNG). */
export function markAsPicture(response: Response): void {
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Content-Security-Policy', PICTURE_CSP);
}

/** The headers of the viewer's page. */
export function markAsViewerPage(response: Response): void {
  response.setHeader('Content-Security-Policy', VIEWER_CSP);
  response.setHeader('Referrer-Policy', ORIGIN_LEAVES_NOTHING);
  response.setHeader('X-Content-Type-Options', 'nosniff');
}

/** How the download headers read in the OpenAPI document (on the 200 of each download). */
export const DOWNLOAD_HEADER_DOCS = {
  'X-Content-Type-Options': { description: '`nosniff`: the browser takes the Content-Type as given.', required: true, schema: { type: 'string' } },
  'Content-Security-Policy': { description: '`sandbox`: opened in a browser, the file runs nothing and is no page of the archive.', required: true, schema: { type: 'string' } },
};

/**
 * Cross-origin calls, when CORS_ORIGINS lists sites (the `cors` package through Nest's enableCors):
 * their pages may call every route with a token (Authorization, never cookies), and read the headers
 * the API's answers carry. A request from any other origin gets no Access-Control-Allow-Origin.
 */
export function crossOriginPolicy(origins: readonly string[]): CorsOptions {
  return {
    origin: [...origins],
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'X-Request-Id'],
    exposedHeaders: ['Location', 'ETag', 'X-Request-Id', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Link', 'Content-Disposition'],
    credentials: false,
    // Browsers keep a preflight's answer this long (Chromium at most 2 hours).
    maxAge: 600,
  };
}
