import { readFileSync } from 'node:fs';
import { crossOriginPolicy, isActiveMediaType, servedMediaType } from '../../src/common/download-headers.js';

/** Which declared media types the archive never serves uploaded bytes with, and what it serves instead. */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));
// Real files: a GNU Go game in ASCII, an NNGS game in Latin-1 (not UTF-8), a GoFans XML game.
const ASCII_SGF = fixture('fixtures/realdata/go/gnugo_regression_games/9x9-1.sgf');
const LATIN1_SGF = fixture('fixtures/realdata/go/gnugo_regression_games/nicklas/nicklas12.sgf');
const GOFANS = fixture('fixtures/gofans-examples/ex_2.2.xml');

describe('active media types', () => {
  it.each([
    'text/html',
    'TEXT/HTML; charset=UTF-8',
    ' text/html ;charset=utf-8',
    'application/xhtml+xml',
    'application/vnd.wap.xhtml+xml',
    'image/svg+xml',
    'Image/SVG+XML',
    'text/javascript',
    'application/javascript',
    'application/x-javascript',
    'application/ecmascript',
    'text/ecmascript',
    'text/jscript',
    'text/vbscript',
    'multipart/x-mixed-replace; boundary=page',
    'text/x-component',
    'application/hta',
    // What makes a browser guess: unknown types, and no media type at all.
    '*/*',
    'unknown/unknown',
    'application/unknown',
    'html',
    '',
    'text/html, text/plain',
  ])('%j is active', (type) => {
    expect(isActiveMediaType(type)).toBe(true);
  });

  it.each([
    'application/xml',
    'text/xml',
    'application/xml; charset=utf-8',
    'application/x-go-sgf',
    'application/x-pdn',
    'text/plain',
    'text/plain; charset=windows-1251',
    'application/octet-stream',
    'application/zip',
    'image/png',
    'application/json',
  ])('%j is not', (type) => {
    expect(isActiveMediaType(type)).toBe(false);
  });
});

describe('the media type uploaded bytes are served with', () => {
  it('is the kept one when it is not active, whatever the bytes', () => {
    expect(servedMediaType('application/xml', GOFANS)).toBe('application/xml');
    expect(servedMediaType('application/x-go-sgf; charset=ISO-8859-1', LATIN1_SGF)).toBe('application/x-go-sgf; charset=ISO-8859-1');
  });

  it('is plain UTF-8 text for an active type over UTF-8 bytes, octet-stream over other bytes', () => {
    expect(servedMediaType('text/html', ASCII_SGF)).toBe('text/plain; charset=utf-8');
    expect(servedMediaType('image/svg+xml', GOFANS)).toBe('text/plain; charset=utf-8');
    expect(servedMediaType('text/html; charset=ISO-8859-1', LATIN1_SGF)).toBe('application/octet-stream');
  });
});

describe('the CORS policy', () => {
  it('names the origins and no credentials, and exposes the headers clients read', () => {
    const policy = crossOriginPolicy(['https://club.example']);
    expect(policy.origin).toEqual(['https://club.example']);
    expect(policy.credentials).toBe(false);
    expect(policy.allowedHeaders).toEqual(['Authorization', 'Content-Type', 'If-None-Match', 'X-Request-Id']);
    expect(policy.exposedHeaders).toEqual(expect.arrayContaining(['Location', 'ETag', 'X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'Link']));
  });
});
