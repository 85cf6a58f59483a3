import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Logger as Pino } from 'pino';
import type { AppConfig } from './config.js';
import type { ProblemCode } from './problem-codes.js';
import { makeProblem, PROBLEM_JSON } from './problem-details.js';
import { sendProblem } from './problem-details.filter.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Per-client rate limits (express-rate-limit, IETF draft `RateLimit-*` headers): one for every
 * request and a stricter one for writes. A request carrying a valid token (`holderOf` names it) is
 * counted against its token, with the key budgets (RATE_LIMIT_KEY_*), so a club's own tools are not
 * paced like anonymous clients; any other request against its address. 429 answers are problem+json with Retry-After.
 */
export function rateLimits(config: AppConfig, holderOf: (request: Request) => string | null) {

  const exempt = (request: Request): boolean => config.RATE_LIMIT_EXEMPT_LOOPBACK && LOOPBACK.test(request.ip ?? '');
  const limiter = (budget: { readonly address: number; readonly key: number }, what: string, applies: (request: Request) => boolean) => {
    const limitOf = (request: Request) => (holderOf(request) === null ? budget.address : budget.key);
    return rateLimit({
      windowMs: 60_000,
      limit: limitOf,
      standardHeaders: 'draft-6',
      legacyHeaders: false,
      skip: (request) => !applies(request) || exempt(request) || limitOf(request) === 0,
      keyGenerator: (request) => {
        const holder = holderOf(request);
        return holder === null ? ipKeyGenerator(request.ip ?? 'unknown') : `key:${holder}`;
      },
      handler: (request, response) => {
        const reset = (request as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
        const retryAfter = Math.max(1, Math.ceil(((reset?.getTime() ?? Date.now() + 60_000) - Date.now()) / 1000));
        const who = holderOf(request) === null ? 'this client' : 'this token';
        const problem = makeProblem(429, 'request.rate_limited', `more than ${limitOf(request)} ${what} a minute from ${who}: retry after ${retryAfter} s`);
        sendProblem(request, response as Response, problem, retryAfter);
      },
    });
  };
  return [
    limiter({ address: config.RATE_LIMIT_PER_MINUTE, key: config.RATE_LIMIT_KEY_PER_MINUTE }, 'requests', () => true),
    limiter({ address: config.RATE_LIMIT_WRITES_PER_MINUTE, key: config.RATE_LIMIT_KEY_WRITES_PER_MINUTE }, 'uploads and deletes', (request) => WRITES.has(request.method)),
  ];
}

/**
 * What Node's HTTP server does before any route: header and request timeouts, and answers to
 * requests it cannot parse (bad framing, oversized headers, a client too slow) as problem+json
 * instead of a bare status line.
 */
export function guardHttpServer(server: Server, config: AppConfig, logger: Pino): void {
  server.headersTimeout = config.HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.REQUEST_TIMEOUT_MS;
  // Node enforces both timeouts on a timer that runs every 30 s by default.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(1000, config.HEADERS_TIMEOUT_MS);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, code, detail]: [number, ProblemCode, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request.headers_too_large', 'the request headers are larger than the server accepts (16 KB)']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'request.timeout', `the request did not arrive whole within ${config.REQUEST_TIMEOUT_MS} ms (REQUEST_TIMEOUT_MS)`]
          : [400, 'request.malformed', `the request is not valid HTTP (${error.code ?? error.message})`];
    const requestId = randomUUID();
    const body = JSON.stringify({ ...makeProblem(status, code, detail), requestId });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_JSON}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
    logger.info({ requestId }, `- - ${status} 0ms ${Buffer.byteLength(body)}B [${requestId}] (${error.code ?? 'client error'})`);
  });
}
