import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROBLEM_CODES } from './problem-codes.js';
import type { ProblemCode } from './problem-codes.js';

export class ProblemIssueDto {
  message: string;
  /** 1-based line in the uploaded text. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  line?: number;
  /** 1-based column in the uploaded text. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  column?: number;
  /** 0-based character (or byte) offset. */
  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  offset?: number;
  /** 1-based ply of the game. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1 })
  ply?: number;
}

/** RFC 9457 problem details (`application/problem+json`), the body of every error answer. */
export class ProblemDetailsDto {
  /** A URI naming the kind of problem. */
  type: string;
  title: string;
  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599 })
  status: number;
  @ApiProperty({ enum: PROBLEM_CODES, enumName: 'ProblemCode', description: 'Stable and machine-readable: what went wrong. New codes may be added; none is renamed.' })
  code: ProblemCode;
  /** What went wrong, for people. */
  detail: string;
  /** The path of the request. */
  instance?: string;
  /** The request's id, as in the X-Request-Id header and the access log. */
  requestId?: string;
  @ApiProperty({ type: [ProblemIssueDto], required: false, description: 'Each thing that is wrong, with where it is when known.' })
  errors?: ProblemIssueDto[];
}
