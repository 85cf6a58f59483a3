import { ApiProperty } from '@nestjs/swagger';

export class ProblemIssueDto {
  message: string;
  /** 1-based line in the uploaded text. */
  line?: number;
  /** 1-based column in the uploaded text. */
  column?: number;
  /** 0-based character (or byte) offset. */
  offset?: number;
  /** 1-based ply of the game. */
  ply?: number;
}

/** RFC 9457 problem details (`application/problem+json`). */
export class ProblemDetailsDto {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  @ApiProperty({ type: [ProblemIssueDto], required: false })
  errors?: ProblemIssueDto[];
}
