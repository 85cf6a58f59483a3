import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { FormatError } from '../core/errors.js';
import { isDatabaseUnavailable, isStorageFull } from './database-errors.js';
import { codeForStatus, ProblemException } from './problem-codes.js';
import { makeProblem, PROBLEM_JSON, ProblemDetails } from './problem-details.js';

/** Seconds a client is told to wait when the database does not answer. */
export const DATABASE_RETRY_AFTER_S = 5;
/** Seconds a client is told to wait when a disk is full: room is made by an operator, not in seconds. */
export const STORAGE_RETRY_AFTER_S = 60;

/**
 * The one place where errors become answers: every failure leaves as `application/problem+json`
 * with a stable `code` and the request id. Unexpected errors are logged with their stack and
 * answered without internals; an unreachable database is a 503 with Retry-After, a full disk a 507
 * with Retry-After.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const { problem, retryAfter } = this.toProblem(exception);
    const where = `${request.method} ${request.originalUrl ?? request.url} [${request.id ?? '-'}]`;
    if (problem.code === 'internal') this.logger.error(`${where}: ${String(exception)}`, (exception as Error)?.stack);
    else if (problem.code === 'service.unavailable') this.logger.warn(`${where}: the database does not answer: ${String(exception)}`);
    else if (problem.code === 'service.storage_full') this.logger.warn(`${where}: a disk is full: ${String(exception)}`);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    sendProblem(request, response, problem, retryAfter);
  }

  private toProblem(exception: unknown): { problem: ProblemDetails; retryAfter?: number } {
    const known = problemOf(exception);
    if (known) return known;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const messages = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : body;
      const list = Array.isArray(messages) ? messages.map(String) : [String(messages ?? exception.message)];
      const errors = list.length > 1 ? list.map((message) => ({ message })) : undefined;
      return { problem: makeProblem(status, codeForStatus(status), list.join('; '), errors) };
    }
    if (isStorageFull(exception)) {
      const detail = 'a disk of the archive is full; nothing was stored: retry later';
      return { problem: makeProblem(HttpStatus.INSUFFICIENT_STORAGE, 'service.storage_full', detail), retryAfter: STORAGE_RETRY_AFTER_S };
    }
    if (isDatabaseUnavailable(exception)) {
      const detail = 'the database does not answer; nothing was changed: retry later';
      return { problem: makeProblem(HttpStatus.SERVICE_UNAVAILABLE, 'service.unavailable', detail), retryAfter: DATABASE_RETRY_AFTER_S };
    }
    const status = httpStatusOf(exception);
    if (status !== undefined && status < 500) {
      return { problem: makeProblem(status, codeForStatus(status), (exception as Error).message) };
    }
    return { problem: makeProblem(500, 'internal', 'The server failed to handle the request; it has been logged with the request id.') };
  }
}

/** Says which request a problem answers: its path and its id. */
function stamp(problem: ProblemDetails, request: Request): void {
  problem.instance = request.originalUrl ?? request.url;
  if (request.id !== undefined) problem.requestId = String(request.id);
}

/**
 * Writes a problem+json answer to a request, with its path and id, WWW-Authenticate on 401 and
 * Retry-After when given. The one way every error answer is written.
 */
export function sendProblem(request: Request, response: Response, problem: ProblemDetails, retryAfter?: number): void {
  stamp(problem, request);
  if (problem.status === HttpStatus.UNAUTHORIZED) response.setHeader('WWW-Authenticate', 'Bearer');
  if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
  response.status(problem.status).type(PROBLEM_JSON).send(JSON.stringify(problem));
}

/** Errors from body parsers and multer carry an HTTP status of their own. */
function httpStatusOf(exception: unknown): number | undefined {
  const candidate = exception as { status?: unknown; statusCode?: unknown };
  const status = Number(candidate?.status ?? candidate?.statusCode);
  return Number.isInteger(status) && status >= 400 && status < 600 ? status : undefined;
}

/**
 * The problem the archive's own errors stand for: a FormatError (the upload's fault, with where) or a
 * ProblemException (with its Retry-After); undefined for anything else.
 */
export function problemOf(exception: unknown): { problem: ProblemDetails; retryAfter?: number } | undefined {
  if (exception instanceof FormatError) return { problem: makeProblem(exception.status, exception.code, exception.message, exception.issues) };
  if (exception instanceof ProblemException) {
    return { problem: makeProblem(exception.getStatus(), exception.code, exception.message), retryAfter: exception.retryAfterSeconds };
  }
  return undefined;
}
