import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { GameSummaryDto } from '../../catalog/dto/game.dto.js';
import { TRANSFORM_NAMES } from '../../formats/families/positions.js';
import type { TransformName } from '../../formats/families/positions.js';
import { RELATIONS } from '../identity.repository.js';
import type { Relation } from '../identity.repository.js';

export const MAX_RELATIVES = 500;

export class RelativesQuery {
  /** Most relatives listed, oldest first (default 100). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_RELATIVES, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_RELATIVES)
  limit?: number;
}

/** Another file of the game, or of a part of it. */
export class RelativeGameDto extends GameSummaryDto {
  @ApiProperty({
    enum: RELATIONS,
    enumName: 'GameRelation',
    description:
      '`same`: the other file holds this game; `prefix`: its plies (30 at least) are the beginning of this game\'s (a broken-off copy); `extension`: this game\'s plies are the beginning of its.',
  })
  relation: Relation;

  @ApiProperty({
    enum: TRANSFORM_NAMES,
    enumName: 'BoardTransform',
    nullable: true,
    description: "The symmetry that turns this game's board into the other's; null when they agree as they stand.",
  })
  transform: TransformName | null;

  @ApiProperty({ description: 'Go and Dots: the other file has the colours (the seats) the other way round.' })
  coloursSwapped: boolean;
}

export class RelativesDto {
  @ApiProperty({ type: [RelativeGameDto], description: 'Oldest first.' })
  items: RelativeGameDto[];
}
