import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PageSize } from '../../common/page-size.js';
import { SearchGamesQuery } from '../../catalog/dto/search-games.query.js';
import { IsGameIdNumber } from '../../http/game-id.pipe.js';

/** The tag rules as the spec shows them (src/common/tags.ts checks them, 400 `tag.invalid`). */
const TAG_SCHEMA = { type: 'string' as const, minLength: 1, maxLength: 50, description: 'Letters of any script, digits, `-` and `_`; not starting with `-`.', example: 'studied' };

/** A game's tags after a change. */
export class GameTagsDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  id: number;
  /** Sorted by code point, in Unicode NFC. */
  @ApiProperty({ type: [String], example: ['joseki', 'studied'] })
  tags: string[];
}

/** What `POST /games/tags` does to every game of the search: tags to add, tags to remove (removals first). */
export class ChangeTagsDto {
  @ApiPropertyOptional({ type: 'array', items: TAG_SCHEMA, maxItems: 50, description: 'Tags to add to each game (a game keeps at most 50).' })
  @IsOptional()
  add?: unknown;

  @ApiPropertyOptional({ type: 'array', items: TAG_SCHEMA, maxItems: 50, description: 'Tags to remove from each game.' })
  @IsOptional()
  remove?: unknown;
}

/** Which games a bulk change of tags goes over: the search filters, a batch size, and where to go on. */
export class ChangeTagsQuery extends OmitType(SearchGamesQuery, ['cursor', 'limit', 'sort'] as const) {
  @PageSize(10000, 1000)
  limit?: number;

  /** Start after this game id: the `next` of the previous call (games are walked by ascending id). */
  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })
  @IsOptional()
  @IsGameIdNumber(0)
  after?: number;
}

export class ChangeTagsPageDto {
  /** Games of this batch that match the search and that the caller may write. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  matched: number;
  /** Of those, the games whose tags changed. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  changed: number;
  /** Games that would have had more than 50 tags: left without the tags to add (removals done). */
  @ApiProperty({ type: 'array', items: { type: 'integer', format: 'int64' } })
  full: number[];
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, description: 'Pass as `after` (with the same filters and body) for the next batch; null when done.' })
  next: number | null;
}

export class TagCountsQuery {
  /** Only tags starting with this text (case counts), as written. */
  @ApiPropertyOptional({ minLength: 1, maxLength: 50 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  prefix?: string;

  @PageSize(1000, 100)
  limit?: number;
}

export class TagCountDto {
  @ApiProperty({ example: 'studied' })
  tag: string;
  /** Games with this tag. */
  @ApiProperty({ type: 'integer', minimum: 1 })
  games: number;
}
