import type { Request } from 'express';

/** Whether an If-None-Match header names this ETag (weak comparison, `*` matches any). */
export function matchesEtag(header: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '');
  return header.trim() === '*' || header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}

/**
 * Conditional GETs answered by the ETag alone. Express's own freshness test gives up when the request
 * says `Cache-Control: no-cache`, which every fetch() implementation adds to a request carrying
 * If-None-Match; that directive is for caches on the way, and the archive, the origin, may still
 * answer 304 when the tag matches (RFC 9110 §13.1.2, RFC 9111 §5.2.1.4). Installed once, at start-up,
 * on the prototype Express gives every request of this application.
 */
export function answerConditionalRequestsByEtag(expressApp: { request: object }): void {
  Object.defineProperty(expressApp.request, 'fresh', {
    configurable: true,
    get(this: Request): boolean {
      if (this.method !== 'GET' && this.method !== 'HEAD') return false;
      const status = this.res?.statusCode ?? 200;
      if (!((status >= 200 && status < 300) || status === 304)) return false;
      const etag = this.res?.getHeader('ETag');
      const header = this.headers['if-none-match'];
      return typeof header === 'string' && etag !== undefined && matchesEtag(header, String(etag));
    },
  });
}
