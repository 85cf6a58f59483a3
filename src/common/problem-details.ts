import type { FormatIssue } from '../formats/errors.js';

/** RFC 9457 problem details, the body of every error answer. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  /** Each thing that is wrong, with where it is (line/column, offset or ply) when known. */
  errors?: readonly FormatIssue[];
}

export const PROBLEM_JSON = 'application/problem+json';
