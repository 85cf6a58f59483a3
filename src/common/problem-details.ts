import type { FormatIssue } from '../core/errors.js';
import type { ProblemCode } from './problem-codes.js';

/** RFC 9457 problem details, the body of every error answer. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  /** Stable and machine-readable: what went wrong. */
  code: ProblemCode;
  detail: string;
  instance?: string;
  /** The request's id, as in the X-Request-Id header and the access log. */
  requestId?: string;
  /** Each thing that is wrong, with where it is (line/column, offset or ply) when known. */
  errors?: readonly FormatIssue[];
}

export const PROBLEM_JSON = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Upload too large',
  415: 'Unsupported content',
  422: 'Unreadable game file',
  429: 'Too many requests',
  431: 'Request headers too large',
  500: 'Internal server error',
  503: 'Service unavailable',
  507: 'Insufficient storage',
};

/** A problem with its title and type derived from the status. */
export function makeProblem(status: number, code: ProblemCode, detail: string, errors?: readonly FormatIssue[]): ProblemDetails {
  const title = TITLES[status] ?? (status < 500 ? 'Request failed' : 'Server error');
  return {
    type: `https://tabula.invalid/problems/${code.replace(/[._]/g, '-')}`,
    title,
    status,
    code,
    detail,
    ...(errors ? { errors } : {}),
  };
}
