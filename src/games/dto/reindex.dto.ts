import { PageSize } from '../../common/page-size.js';
import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsGameIdNumber } from '../game-id.pipe.js';
import { PROBLEM_CODES } from '../../common/problem-codes.js';
import type { ProblemCode } from '../../common/problem-codes.js';
import { SearchGamesQuery } from './search-games.query.js';

/** Which games a bulk re-indexing reads again: the search filters, a batch size, and where to go on. */
export class ReindexQuery extends OmitType(SearchGamesQuery, ['cursor', 'limit', 'sort'] as const) {
  @PageSize(1000, 100)
  limit?: number;

  /** Start after this game id: the `next` of the previous call (games are walked by ascending id). */
  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })
  @IsOptional()
  @IsGameIdNumber(0)
  after?: number;
}

/** A game today's plugins refuse: it is left as it was. */
export class ReindexRefusalDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  id: number;
  @ApiProperty({ enum: PROBLEM_CODES, enumName: 'ProblemCode' })
  code: ProblemCode;
  detail: string;
}

export class ReindexPageDto {
  /** Games read again and rewritten in this call. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  reindexed: number;
  /** Of those, the ones a plugin now understands (status `indexed`). */
  @ApiProperty({ type: 'integer', minimum: 0 })
  indexed: number;
  @ApiProperty({ type: [ReindexRefusalDto] })
  refused: ReindexRefusalDto[];
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, description: 'Pass as `after` (with the same filters) for the next batch; null when done.' })
  next: number | null;
}
