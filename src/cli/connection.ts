import { createClient } from './generated/client/index.js';
import type { Client } from './generated/client/index.js';
import { CliError, EXIT } from './exit-codes.js';

/** The archive the command talks to: the generated client, set up with its address and token. */
export interface Connection {
  readonly client: Client;
  readonly baseUrl: string;
}

export const DEFAULT_URL = 'http://127.0.0.1:3000';

/** What a call of the generated client hands back (with `throwOnError` off). */
export interface CallResult<T> {
  readonly data?: T;
  readonly error?: unknown;
  readonly response?: Response;
}

/**
 * The archive's address as the commands use it: an http or https URL without a trailing slash. It is
 * also the key a token is saved under by `tabula login`, so `http://host:3000/` and
 * `http://host:3000` are one archive.
 */
export function archiveUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`--url: "${url}" is not a URL (e.g. ${DEFAULT_URL})`, EXIT.usage);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`--url: "${url}" is not an http or https URL`, EXIT.usage);
  }
  return parsed.href.replace(/\/+$/, '');
}

/**
 * A client for the archive at `url`. The token, when given, goes out as `Authorization: Bearer` on
 * every call: the spec declares the bearer scheme on every operation (optional on reads), since an
 * archive with PUBLIC_READS=false wants it on reads too.
 */
export function connect(url: string, token: string | undefined): Connection {
  const baseUrl = archiveUrl(url);
  const bearer = token?.trim() || undefined;
  return { baseUrl, client: createClient({ baseUrl, ...(bearer ? { auth: () => bearer } : {}) }) };
}

/** The data of a successful answer; a clear CliError for an error answer or a failed connection. */
export function answerOf<T>(connection: Connection, result: CallResult<T>, what: string): { data: T; response: Response } {
  if (!result.response) throw unreachable(connection, result.error);
  if (!result.response.ok) throw new CliError(`${what}: ${describeProblem(result.response.status, result.error)}`, EXIT.server);
  return { data: result.data as T, response: result.response };
}

/** The exit-4 error for an archive that could not be reached. */
export function unreachable(connection: Connection, error: unknown): CliError {
  return new CliError(`cannot reach the archive at ${connection.baseUrl}: ${networkReason(error)}`, EXIT.network);
}

/** A problem+json answer as `code: detail`; anything else as its status and the start of its text. */
export function describeProblem(status: number, body: unknown): string {
  if (body !== null && typeof body === 'object') {
    const problem = body as { code?: unknown; detail?: unknown; title?: unknown };
    if (typeof problem.code === 'string') {
      return `${problem.code}: ${typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : `HTTP ${status}`}`;
    }
  }
  const text = typeof body === 'string' ? body.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
  return `HTTP ${status}${text ? `: ${text}` : ''}`;
}

/**
 * Why fetch failed, from the innermost cause (`connect ECONNREFUSED 127.0.0.1:3000`, `getaddrinfo
 * ENOTFOUND host`). Read by shape, not `instanceof`: the error may come from another realm.
 */
function networkReason(error: unknown): string {
  let reason = 'the connection failed';
  let current = error as { message?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    if (typeof current.message === 'string' && current.message !== '' && current.message !== 'fetch failed') reason = current.message;
    current = current.cause as typeof current;
  }
  return reason;
}

/** Waits out a 429 or 503 answer's Retry-After (seconds; 1 s when absent, at most 30 s) and says whether to try again. */
export async function waitToRetry(response: Response | undefined, attempt: number, maxAttempts = 6): Promise<boolean> {
  if (!response || (response.status !== 429 && response.status !== 503) || attempt >= maxAttempts) return false;
  const seconds = Number(response.headers.get('retry-after'));
  const wait = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 30) : 1;
  await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  return true;
}
