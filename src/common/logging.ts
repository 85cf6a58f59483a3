import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { pino, Logger as Pino } from 'pino';
import { pinoHttp } from 'pino-http';
import PinoPretty from 'pino-pretty';
import type { AppConfig } from './config.js';

const LEVELS = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' } as const;

/**
 * The archive's logger (pino): one JSON object per line with LOG_FORMAT=json, otherwise one
 * readable line per event, coloured only when the output is a terminal.
 */
export function createLogger(config: Pick<AppConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>, output: NodeJS.WritableStream = process.stdout): Pino {
  const level = LEVELS[config.LOG_LEVEL];
  if (config.LOG_FORMAT === 'json') return pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, output as pino.DestinationStream);
  const colorize = (output as { isTTY?: boolean }).isTTY === true;
  const pretty = PinoPretty({
    colorize,
    sync: true,
    destination: output,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime,context,requestId,tokenId',
    messageFormat: (log: Record<string, unknown>, messageKey: string) =>
      log.context ? `[${String(log.context)}] ${String(log[messageKey])}` : String(log[messageKey]),
    singleLine: true,
  });
  return pino({ level }, pretty);
}

/** A request id from the client's X-Request-Id when it is a sane token, else a fresh UUID. */
function requestIdOf(request: IncomingMessage, response: ServerResponse): string {
  const given = request.headers['x-request-id'];
  const id = typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
  response.setHeader('X-Request-Id', id);
  return id;
}

/** Query parameters a client might put a secret in: refused by the archive (401), and never logged. */
export const SECRET_QUERY_PARAMETERS = ['token', 'access_token', 'api_key', 'apikey', 'key', 'bearer'];

/** The URL with the values of {@link SECRET_QUERY_PARAMETERS} blanked out. */
export function withoutSecrets(url: string): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // Kept as sent: a name that does not decode names no secret parameter either.
      }
      return SECRET_QUERY_PARAMETERS.includes(decoded.toLowerCase()) ? `${name}=[hidden]` : pair;
    });
  return `${url.slice(0, question)}?${query.join('&')}`;
}

/** Who a request came as, for its access-log line (a token id, never a secret). */
export type RequestHolder = (request: IncomingMessage) => string | null;

function accessLine(request: IncomingMessage, response: ServerResponse, milliseconds: number, holderOf?: RequestHolder): string {
  const url = withoutSecrets((request as { originalUrl?: string }).originalUrl ?? request.url ?? '');
  const bytes = response.getHeader('content-length') ?? '-';
  const holder = holderOf?.(request) ?? null;
  return `${request.method} ${url} ${response.statusCode} ${Math.round(milliseconds)}ms ${bytes}B${holder === null ? '' : ` token ${holder}`}`;
}

/**
 * Express middleware writing one access-log line per request (method, path without secrets,
 * status, duration, bytes, the token's id when `holderOf` names one, request id) and giving every request its id (`request.id`, the X-Request-Id header).
 */
export function accessLog(logger: Pino, holderOf?: RequestHolder) {
  return pinoHttp({
    logger,
    genReqId: requestIdOf,
    customLogLevel: (_request, response, error) => (error || response.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (request, response, milliseconds) => `${accessLine(request, response, milliseconds, holderOf)} [${String(request.id)}]`,
    customErrorMessage: (request, response) => `${accessLine(request, response, 0, holderOf)} [${String(request.id)}] (the connection failed)`,
    customProps: (request) => ({ requestId: String(request.id), ...(holderOf?.(request) ? { tokenId: holderOf(request) } : {}) }),
    serializers: {
      req: (request: { method?: string; url?: string; remoteAddress?: string }) => ({ method: request.method, url: withoutSecrets(request.url ?? ''), remoteAddress: request.remoteAddress }),
      res: (response: { statusCode?: number; headers?: Record<string, unknown> }) => ({ statusCode: response.statusCode, bytes: response.headers?.['content-length'] }),
    },
  });
}

/** Nest's own log lines (start-up, errors…) through the same pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Pino) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal', message: unknown, rest: unknown[]): void {
    // Nest passes (message, context) or, for errors, (message, stack, context).
    const strings = rest.filter((item): item is string => typeof item === 'string');
    const context = strings.length > 0 ? strings[strings.length - 1] : undefined;
    const stack = strings.find((item) => item.includes('\n    at '));
    const text = message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
    this.logger[level]({ context, ...(stack ? { stack } : {}) }, text);
  }
}
