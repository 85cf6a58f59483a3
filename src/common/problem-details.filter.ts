import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { FormatError } from '../formats/errors.js';
import { PROBLEM_JSON, ProblemDetails } from './problem-details.js';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  404: 'Not found',
  413: 'Upload too large',
  415: 'Unsupported content',
  422: 'Unreadable game file',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/**
 * The one place where errors become answers: every failure leaves as `application/problem+json`.
 * Unexpected errors are logged with their stack and answered without internals.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const problem = this.toProblem(exception);
    problem.instance = request.originalUrl ?? request.url;
    if (problem.status >= 500) this.logger.error(`${request.method} ${problem.instance}: ${String(exception)}`, (exception as Error)?.stack);
    if (response.headersSent) return;
    if (problem.status === HttpStatus.UNAUTHORIZED) response.setHeader('WWW-Authenticate', 'Bearer');
    response.status(problem.status).type(PROBLEM_JSON).send(JSON.stringify(problem));
  }

  private toProblem(exception: unknown): ProblemDetails {
    if (exception instanceof FormatError) {
      return problem(exception.status, exception.message, exception.issues);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const messages = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : body;
      const list = Array.isArray(messages) ? messages.map(String) : [String(messages ?? exception.message)];
      return problem(status, list.join('; '), list.length > 1 ? list.map((message) => ({ message })) : undefined);
    }
    const status = httpStatusOf(exception);
    if (status !== undefined && status < 500) {
      return problem(status, (exception as Error).message);
    }
    return problem(500, 'The server failed to handle the request; it has been logged.');
  }
}

function problem(status: number, detail: string, errors?: ProblemDetails['errors']): ProblemDetails {
  const title = TITLES[status] ?? (status < 500 ? 'Request failed' : 'Server error');
  return {
    type: `https://tabula.invalid/problems/${title.toLowerCase().replace(/[^a-z]+/g, '-')}`,
    title,
    status,
    detail,
    ...(errors ? { errors } : {}),
  };
}

/** Errors from body parsers and multer carry an HTTP status of their own. */
function httpStatusOf(exception: unknown): number | undefined {
  const candidate = exception as { status?: unknown; statusCode?: unknown };
  const status = Number(candidate?.status ?? candidate?.statusCode);
  return Number.isInteger(status) && status >= 400 && status < 600 ? status : undefined;
}
