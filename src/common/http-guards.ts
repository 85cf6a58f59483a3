import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Logger as Pino } from 'pino';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';
import type { AppConfig } from './config.js';
import type { ProblemCode } from './problem-codes.js';
import { makeProblem, PROBLEM_JSON } from './problem-details.js';
import { sendProblem } from './problem-details.filter.js';
import { costOf, EXPENSIVE_UNITS } from './request-costs.js';
import type { RequestCost } from './request-costs.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;
/** The budgets' window: units and writes are counted per client per minute (a fixed window from its first request). */
const WINDOW_SECONDS = 60;
/** The table of migration 1766100000000-RateLimits, which every node on one PostgreSQL server counts in. */
const RATE_LIMITS_TABLE = 'rate_limits';
/** Past this, a count the database has not confirmed is made in this node's memory instead (rate-limiter-flexible's insurance). */
const SHARED_STORE_TIMEOUT_MS = 1_000;

/** What a client may still spend: rate-limiter-flexible's answer. */
interface Spent {
  readonly remainingPoints: number;
  readonly msBeforeNext: number;
}

interface Counter {
  consume(key: string, units: number): Promise<Spent>;
}

/**
 * Cost-based rate limits (docs/limits.md). Each request is priced by the cost table
 * (src/common/request-costs.ts): a read in units against the client's unit budget, a write against
 * its write budget, kept apart so that reads never starve writes; /health is free. A client is a
 * valid token (`holderOf` names it: RATE_LIMIT_KEY_* budgets) or else an address (an IPv6 /56
 * subnet as one). With a DataSource — a PostgreSQL server, shared by every node — the budgets are
 * counted in its `rate_limits` table (rate-limiter-flexible's RateLimiterPostgres); without one — the
 * embedded database, one process — in this process's memory (its RateLimiterMemory). Expensive reads
 * also count while they run, per client on this node (EXPENSIVE_IN_FLIGHT_PER_CLIENT). Answers carry
 * the IETF draft RateLimit-* headers of the budget they drew on; a refusal is 429 problem+json
 * `request.rate_limited` with Retry-After.
 */
export function rateLimits(config: AppConfig, holderOf: (request: Request) => string | null, database?: DataSource): RequestHandler {
  const exempt = (request: Request): boolean => config.RATE_LIMIT_EXEMPT_LOOPBACK && LOOPBACK.test(request.ip ?? '');
  const budgets = {
    reads: { address: config.RATE_LIMIT_PER_MINUTE, key: config.RATE_LIMIT_KEY_PER_MINUTE },
    writes: { address: config.RATE_LIMIT_WRITES_PER_MINUTE, key: config.RATE_LIMIT_KEY_WRITES_PER_MINUTE },
  };
  // One counter per budget and limit: rate-limiter-flexible holds the limit in the limiter; the keys tell clients apart.
  const counters = new Map<string, Counter>();
  const counterOf = (budget: 'reads' | 'writes', limit: number): Counter => {
    const name = `${budget}:${limit}`;
    let counter = counters.get(name);
    if (counter === undefined) {
      counter = makeCounter(budget, limit, database, counters.size === 0);
      counters.set(name, counter);
    }
    return counter;
  };
  const running = new Map<string, number>();
  const inFlightLimit = config.EXPENSIVE_IN_FLIGHT_PER_CLIENT;

  return (request: Request, response: Response, next: NextFunction): void => {
    if (exempt(request)) return next();
    const cost = costOf(request.method, request.path, request.query as Record<string, unknown>);
    if (cost.budget === 'free') return next();
    const holder = holderOf(request);
    const client = holder === null ? ipKeyGenerator(request.ip ?? 'unknown') : `token:${holder}`;
    const who = holder === null ? 'this client' : 'this token';

    let gone = false;
    let release = (): void => {};
    if (cost.expensive && inFlightLimit > 0) {
      const now = running.get(client) ?? 0;
      if (now >= inFlightLimit) {
        const detail = `${inFlightLimit} expensive requests (of ${EXPENSIVE_UNITS} units or more) from ${who} are still running: retry when one has finished`;
        return sendProblem(request, response, makeProblem(429, 'request.rate_limited', detail), 1);
      }
      running.set(client, now + 1);
      let held = true;
      release = () => {
        if (!held) return;
        held = false;
        const left = (running.get(client) ?? 1) - 1;
        if (left > 0) running.set(client, left);
        else running.delete(client);
      };
    }
    // Finished or abandoned by its client, the request no longer runs.
    response.once('close', () => {
      gone = true;
      release();
    });

    const limit = holder === null ? budgets[cost.budget].address : budgets[cost.budget].key;
    if (limit === 0) return next();
    // A request priced above the whole budget takes all of it rather than never being served.
    const units = Math.min(cost.units, limit);
    counterOf(cost.budget, limit)
      .consume(client, units)
      .then(
        (spent) => {
          setRateLimitHeaders(response, limit, spent);
          if (!gone) next();
        },
        (refusal: unknown) => {
          if (!(refusal instanceof RateLimiterRes)) {
            // Even the memory count failed: serve rather than refuse everyone.
            new Logger('RateLimits').warn(`a request was not counted: ${(refusal as Error)?.message ?? String(refusal)}`);
            if (!gone) next();
            return;
          }
          release();
          setRateLimitHeaders(response, limit, refusal);
          const retryAfter = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
          sendProblem(request, response, makeProblem(429, 'request.rate_limited', refusalDetail(cost, units, limit, who, retryAfter)), retryAfter);
        },
      );
  };
}

function refusalDetail(cost: RequestCost, units: number, limit: number, who: string, retryAfter: number): string {
  return cost.budget === 'writes'
    ? `more than ${limit} writes (uploads, imports, deletes) a minute from ${who}: retry after ${retryAfter} s`
    : `more than ${limit} units of reads a minute from ${who} (a ${cost.kind} costs ${units}): retry after ${retryAfter} s`;
}

/** The IETF draft-6 headers the archive has always sent: the budget, what is left of it, and when it is whole again. */
function setRateLimitHeaders(response: Response, limit: number, spent: Spent): void {
  if (response.headersSent) return;
  response.setHeader('RateLimit-Policy', `${limit};w=${WINDOW_SECONDS}`);
  response.setHeader('RateLimit-Limit', String(limit));
  response.setHeader('RateLimit-Remaining', String(Math.max(0, spent.remainingPoints)));
  response.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(spent.msBeforeNext / 1000))));
}

/**
 * A budget's counter. In memory for the embedded database: PGlite is one process, so memory is
 * exactly as shared as the database, and its one connection runs one statement at a time, so a
 * count there would wait behind every search. In the `rate_limits` table for a PostgreSQL server,
 * on the DataSource's pool: one upsert per request, shared by every node; a client over its budget
 * is then refused from memory until the window ends (no statement per refusal). A count the server
 * has not answered within a second, or has failed, is made in memory (the insurance), so a slow or
 * vanished database never holds or refuses a request on the limits' account.
 */
function makeCounter(budget: 'reads' | 'writes', limit: number, database: DataSource | undefined, sweeps: boolean): Counter {
  const memory = new RateLimiterMemory({ keyPrefix: budget, points: limit, duration: WINDOW_SECONDS });
  if (database === undefined) return memory;
  const shared = new RateLimiterPostgres({
    storeClient: database,
    storeType: 'typeorm',
    tableName: RATE_LIMITS_TABLE,
    // Made by the migration: no node issues DDL at run time.
    tableCreated: true,
    // Deletes the rows expired an hour ago every five minutes; one counter of the node does it for the table.
    clearExpiredByTimeout: sweeps,
    keyPrefix: budget,
    points: limit,
    duration: WINDOW_SECONDS,
    inMemoryBlockOnConsumed: limit,
  });
  return new RLWrapperTimeouts({ limiter: shared, timeoutMs: SHARED_STORE_TIMEOUT_MS, insuranceLimiter: memory });
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
