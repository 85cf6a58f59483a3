import { PageSize } from '../../common/page-size.js';
import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { IsGameIdNumber } from '../../http/game-id.pipe.js';
import { PROBLEM_CODES } from '../../common/problem-codes.js';
import type { ProblemCode } from '../../common/problem-codes.js';
import { SearchGamesQuery } from '../../catalog/dto/search-games.query.js';

/** The indexes to rebuild (absent: the game's reading and every index), as `POST /reindex` and `POST /games/{id}/reindex` take them. */
export class ReindexIndexes {
  /**
   * Comma-separated indexes to rebuild from a new reading (`positions,patterns`), leaving the game's
   * own row and its other indexes as they are: e.g. to give games stored while an index was off
   * (INDEXES) that index. Absent: the game is read again whole and every index rebuilt.
   */
  @ApiPropertyOptional({ example: 'positions,patterns', maxLength: 200 })
  @IsOptional()
  @Matches(/^[a-z][a-z0-9_-]{0,39}(,[a-z][a-z0-9_-]{0,39}){0,4}$/, { message: 'indexes must be index names separated by commas (at most 5), e.g. positions,patterns' })
  indexes?: string;
}

/** Which games a bulk re-indexing reads again: the search filters, a batch size, and where to go on. */
export class ReindexQuery extends IntersectionType(OmitType(SearchGamesQuery, ['cursor', 'limit', 'sort'] as const), ReindexIndexes) {
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
