import { PageSize } from '../../common/page-size.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsGameIdNumber } from '../../http/game-id.pipe.js';
import { FAMILIES, PLAYER_OUTCOMES } from '../../formats/plugin.js';
import type { Family, PlayerOutcome } from '../../formats/plugin.js';

export class FindPlayersQuery {
  /**
   * Part of a player's name, compared as search compares names (NFKC, lower case). Three characters
   * or more match anywhere in the name; one or two match whole names only (no index serves shorter parts).
   */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @PageSize(100, 20)
  limit?: number;

  /** The `next` value of the previous page. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  after?: string;
}

export class PlayerSummaryDto {
  /** The player's key: the name as search folds it. `GET /players/{key}` has the statistics. */
  key: string;
  /** The name as one of the player's files writes it. */
  name: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Games in the archive with this player.' })
  games: number;
}

export class PlayerPageDto {
  @ApiProperty({ type: [PlayerSummaryDto] })
  items: PlayerSummaryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `after` (with the same name) for the next page; null on the last.' })
  next: string | null;
}

/**
 * Games played and how they ended, each game once (another file of a game, or a broken-off copy of
 * it, is not counted again: docs/identity.md); `unknown`: games whose outcome is not recorded (stored before outcomes were kept).
 */
export class PlayerRecordDto {
  @ApiProperty({ type: 'integer', minimum: 0 })
  played: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  won: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  lost: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  drawn: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  unfinished: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  unknown: number;
}

export class FamilyRecordDto extends PlayerRecordDto {
  @ApiProperty({ enum: FAMILIES, enumName: 'Family' })
  family: Family;
}

/** A player's statistics: the response 201 of the Dots server design, for every family. */
export class PlayerStatisticsDto {
  key: string;
  /** The names the player's files write (up to 10). */
  names: string[];
  @ApiProperty({ type: PlayerRecordDto })
  overall: PlayerRecordDto;
  @ApiProperty({ type: [FamilyRecordDto] })
  byFamily: FamilyRecordDto[];
}

export class PlayerGamesQuery {
  @PageSize(100, 20)
  limit?: number;

  /** The `next` value of the previous page: games with smaller ids follow. */
  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
  @IsOptional()
  @IsGameIdNumber()
  before?: number;
}

export class PlayerGameDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  gameId: number;
  @ApiProperty({ type: 'integer', minimum: 0 })
  seat: number;
  @ApiProperty({ enum: PLAYER_OUTCOMES, enumName: 'PlayerOutcome', nullable: true })
  outcome: PlayerOutcome | null;
  @ApiProperty({ enum: FAMILIES, enumName: 'Family', nullable: true })
  family: Family | null;
  @ApiProperty({ type: String, nullable: true })
  publisher: string | null;
  @ApiProperty({ type: String, nullable: true })
  result: string | null;
  @ApiProperty({ type: String, format: 'date-time' })
  uploadedAt: string;
}

export class PlayerGamesPageDto {
  @ApiProperty({ type: [PlayerGameDto] })
  items: PlayerGameDto[];
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, description: 'Pass as `before` for the next page; null on the last.' })
  next: number | null;
}
