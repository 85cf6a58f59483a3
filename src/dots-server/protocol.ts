/**
 * The Dots server's text protocol without sockets: bytes in, typed requests (or the reason for a
 * 401) out, and answers formatted as the design document writes them. A request is one line
 * `CODE[ param]...` followed by two empty lines; an answer is `CODE[ description]`, body lines, then
 * two empty lines. Knows nothing of connections, accounts or games.
 */

/** The answers of the design document. */
export const ANSWERS = {
  200: 'command done',
  201: 'player statistics',
  202: 'list of games',
  203: 'game created',
  204: 'current game state',
  400: 'login already exists',
  401: 'bad command or parameter',
  402: 'internal server error',
  403: 'authorisation error',
  404: 'user not logged in',
  405: 'no game with that ID',
  406: 'no free seat in that game',
  407: 'user is not in a game',
  408: 'illegal move',
} as const;

export type AnswerCode = keyof typeof ANSWERS;

/**
 * Why a request is answered 401, the first word of the answer's description (stable, for clients):
 * - `line_too_long`: a line longer than DOTS_MAX_LINE (the rest of it is skipped);
 * - `not_text`: a line that is not UTF-8 or holds control characters;
 * - `bad_framing`: a request line not followed by two empty lines before the next request;
 * - `unknown_command`: the code is none of the ten requests;
 * - `bad_parameter`: a parameter is missing, extra, malformed or out of range (`login`, `field`…);
 * - `not_now`: a valid request the player's state does not allow (NEW or JOI while in a game,
 *   LOG as another login without LGT, SRD before the game has started);
 * - `idle_timeout`: no valid request for DOTS_IDLE_TIMEOUT_MS outside a game; the connection closes;
 * - `login_timeout`: not logged in within DOTS_LOGIN_TIMEOUT_MS; the connection closes;
 * - `slow_down`: a REG past DOTS_REGISTRATIONS_PER_ADDRESS (a LOG sent during its back-off is
 *   answered `403 slow_down`), with the wait: `retry in N ms`;
 * - `too_many_connections`: the address has DOTS_MAX_CONNECTIONS_PER_ADDRESS open; the connection closes.
 */
export const BAD_REQUEST_REASONS = [
  'line_too_long',
  'not_text',
  'bad_framing',
  'unknown_command',
  'bad_parameter',
  'not_now',
  'idle_timeout',
  'login_timeout',
  'slow_down',
  'too_many_connections',
] as const;
export type BadRequestReason = (typeof BAD_REQUEST_REASONS)[number];

/** The field sizes a new game may ask for (the rules engine's own bounds are wider). */
export const FIELD_MIN_SIDE = 10;
export const FIELD_MAX_SIDE = 50;
export const MIN_SECONDS = 15;
export const MAX_SECONDS = 90;
export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 4;
/** Logins: letters, digits, `_`, `-`, `.`; no spaces (the design's rule) and at most this long. */
export const MAX_LOGIN = 32;
export const MAX_PASSWORD = 128;
const LOGIN = /^[\p{L}\p{N}_.-]+$/u;

export interface GameOptions {
  readonly players: number;
  readonly width: number;
  readonly height: number;
  readonly seconds: number;
  readonly extraMove: boolean;
}

export type DotsRequest =
  | { readonly code: 'REG' | 'LOG'; readonly login: string; readonly password: string }
  | { readonly code: 'LGT' | 'UST' | 'GLS' | 'FIN' | 'SRD' }
  | ({ readonly code: 'NEW' } & GameOptions)
  | { readonly code: 'JOI'; readonly gameId: number }
  | { readonly code: 'TRN'; readonly x: number; readonly y: number };

export type RequestCode = DotsRequest['code'];
export const REQUEST_CODES: readonly RequestCode[] = ['REG', 'LOG', 'LGT', 'UST', 'GLS', 'NEW', 'JOI', 'FIN', 'TRN', 'SRD'];

export class BadRequest {
  constructor(
    readonly reason: BadRequestReason,
    readonly message: string,
  ) {}

  /** The 401 answer: the reason code, then the words. */
  answer(): string {
    return formatAnswer(401, `${this.reason} ${this.message}`);
  }
}

/** `CODE[ description]`, the body lines, then two empty lines. */
export function formatAnswer(code: AnswerCode | 'GSC', description?: string, body: readonly string[] = []): string {
  const head = description === undefined || description === '' ? String(code) : `${code} ${description}`;
  return `${head}\n${body.map((line) => `${line}\n`).join('')}\n\n`;
}

/** Parses one request line (without its line end). */
export function parseRequest(line: string): DotsRequest | BadRequest {
  const words = line.split(' ');
  const code = words[0];
  const params = words.slice(1);
  if (!(REQUEST_CODES as readonly string[]).includes(code)) {
    return new BadRequest('unknown_command', `"${code.slice(0, 3)}" is not a request; one of ${REQUEST_CODES.join(' ')}`);
  }
  const arity: Record<RequestCode, number> = { REG: 2, LOG: 2, LGT: 0, UST: 0, GLS: 0, NEW: 5, JOI: 1, FIN: 0, TRN: 2, SRD: 0 };
  const wanted = arity[code as RequestCode];
  if (params.length !== wanted || params.some((p) => p === '')) {
    return new BadRequest('bad_parameter', `${code} takes ${wanted} parameter${wanted === 1 ? '' : 's'} separated by single spaces`);
  }
  switch (code as RequestCode) {
    case 'REG':
    case 'LOG': {
      const [login, password] = params;
      if (login.length > MAX_LOGIN || !LOGIN.test(login)) {
        return new BadRequest('bad_parameter', `login: 1 to ${MAX_LOGIN} letters, digits, "_", "-" or "."`);
      }
      if (password.length > MAX_PASSWORD) return new BadRequest('bad_parameter', `password: at most ${MAX_PASSWORD} characters`);
      return { code: code as 'REG' | 'LOG', login, password };
    }
    case 'NEW': {
      const [players, width, height, seconds, extra] = params.map(integer);
      if (!inRange(players, MIN_PLAYERS, MAX_PLAYERS)) return new BadRequest('bad_parameter', `players: ${MIN_PLAYERS} to ${MAX_PLAYERS}`);
      if (!inRange(width, FIELD_MIN_SIDE, FIELD_MAX_SIDE) || !inRange(height, FIELD_MIN_SIDE, FIELD_MAX_SIDE)) {
        return new BadRequest('bad_parameter', `field: ${FIELD_MIN_SIDE} to ${FIELD_MAX_SIDE} points each way`);
      }
      if (!inRange(seconds, MIN_SECONDS, MAX_SECONDS)) return new BadRequest('bad_parameter', `time per move: ${MIN_SECONDS} to ${MAX_SECONDS} seconds`);
      if (extra !== 0 && extra !== 1) return new BadRequest('bad_parameter', 'extra move: 0 or 1');
      return { code: 'NEW', players, width, height, seconds, extraMove: extra === 1 };
    }
    case 'JOI': {
      const gameId = integer(params[0]);
      if (!inRange(gameId, 1, Number.MAX_SAFE_INTEGER)) return new BadRequest('bad_parameter', 'game id: a positive integer');
      return { code: 'JOI', gameId };
    }
    case 'TRN': {
      const [x, y] = params.map(integer);
      if (!inRange(x, 0, FIELD_MAX_SIDE - 1) || !inRange(y, 0, FIELD_MAX_SIDE - 1)) return new BadRequest('bad_parameter', `x and y: integers from 0 to ${FIELD_MAX_SIDE - 1}`);
      return { code: 'TRN', x, y };
    }
    default:
      return { code: code as 'LGT' | 'UST' | 'GLS' | 'FIN' | 'SRD' };
  }
}

/** Plain decimal digits only (no sign, no spaces), else NaN. */
function integer(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

function inRange(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}

export type FramerEvent = { readonly kind: 'request'; readonly request: DotsRequest } | { readonly kind: 'bad'; readonly error: BadRequest };

/**
 * Cuts a byte stream into requests. A request is complete after its line and two empty lines
 * (`\r\n` is taken for `\n`); empty lines between requests are ignored. A line longer than
 * `maxLine` bytes is answered at once (`line_too_long`) and skipped up to its end, so the buffer
 * never holds more than `maxLine` bytes. A request line followed by another line instead of the
 * two empty ones is answered `bad_framing`, and the new line starts the next request.
 */
export class RequestFramer {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private skipping = false;
  /** The request line read, waiting for its empty lines; how many of them came. */
  private pending: DotsRequest | BadRequest | null = null;
  private blanks = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(private readonly maxLine: number) {}

  /** Bytes held for an incomplete line. */
  get pendingBytes(): number {
    return this.bufferedBytes;
  }

  push(chunk: Buffer): FramerEvent[] {
    const events: FramerEvent[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline < 0 ? chunk.length : newline;
      if (this.skipping) {
        if (newline >= 0) this.skipping = false;
        start = end + 1;
        continue;
      }
      if (this.bufferedBytes + (end - start) > this.maxLine) {
        this.buffered = [];
        this.bufferedBytes = 0;
        this.skipping = newline < 0;
        this.pending = null;
        this.blanks = 0;
        events.push({ kind: 'bad', error: new BadRequest('line_too_long', `a line may hold at most ${this.maxLine} bytes`) });
        start = end + 1;
        continue;
      }
      if (newline < 0) {
        this.buffered.push(chunk.subarray(start));
        this.bufferedBytes += chunk.length - start;
        break;
      }
      const bytes = this.bufferedBytes === 0 ? chunk.subarray(start, end) : Buffer.concat([...this.buffered, chunk.subarray(start, end)]);
      this.buffered = [];
      this.bufferedBytes = 0;
      start = end + 1;
      this.line(bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.subarray(0, bytes.length - 1) : bytes, events);
    }
    return events;
  }

  private line(bytes: Buffer, events: FramerEvent[]): void {
    if (bytes.length === 0) {
      if (this.pending === null) return;
      if (++this.blanks < 2) return;
      const done = this.pending;
      this.pending = null;
      this.blanks = 0;
      events.push(done instanceof BadRequest ? { kind: 'bad', error: done } : { kind: 'request', request: done });
      return;
    }
    if (this.pending !== null) {
      events.push({ kind: 'bad', error: new BadRequest('bad_framing', 'a request line must be followed by two empty lines') });
    }
    this.blanks = 0;
    this.pending = this.decode(bytes);
  }

  private decode(bytes: Buffer): DotsRequest | BadRequest {
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      return new BadRequest('not_text', 'a request is UTF-8 text');
    }
    // Control characters (tabs included) have no place in a request.
    if (/[\u0000-\u001f\u007f]/.test(text)) return new BadRequest('not_text', 'a request holds no control characters');
    return parseRequest(text);
  }
}
