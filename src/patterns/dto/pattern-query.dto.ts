import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { SearchGamesQuery } from '../../catalog/dto/search-games.query.js';
import { FAMILIES } from '../../formats/plugin.js';
import type { Family } from '../../formats/plugin.js';
import { TRANSFORM_NAMES } from '../../formats/families/positions.js';
import type { TransformName } from '../../formats/families/positions.js';

export const PATTERN_ANCHORS = ['anywhere', 'corner', 'edge'] as const;
export type PatternAnchor = (typeof PATTERN_ANCHORS)[number];
export const PATTERN_COLORS = ['same', 'any'] as const;
export type PatternColors = (typeof PATTERN_COLORS)[number];

/** A pattern and where it may lie, with the filters of GET /games (newest first always: no `sort`), a page size and a cursor. */
export class PatternSearchBody extends OmitType(SearchGamesQuery, ['sort', 'family'] as const) {
  /** `go` or `dots`; any other family has no patterns (400 `pattern.family`). */
  @ApiPropertyOptional({ enum: FAMILIES, enumName: 'Family', description: '`go` or `dots` (other families have no patterns: 400 `pattern.family`). Not needed beside a cursor.' })
  @IsOptional()
  @IsIn(FAMILIES)
  family?: Family;

  @ApiPropertyOptional({
    type: [String],
    example: ['..X*', '.OX.', '....'],
    description:
      'Rows of equal length: `X` a black stone (Dots: a live dot of the first player), `O` a white stone (the second player\'s live dot), `.` an empty point (Dots: not enclosed), `*` anything (Dots: the only cell a captured dot or an enclosed point matches). Not needed beside a cursor.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(64)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  pattern?: string[];

  @ApiPropertyOptional({
    enum: PATTERN_ANCHORS,
    enumName: 'PatternAnchor',
    description: '`anywhere` (default): any placement; `corner`: the pattern as seen in the top-left corner (first row on the first line, first column on the first column), in any corner; `edge`: its first row on an edge.',
  })
  @IsOptional()
  @IsIn(PATTERN_ANCHORS)
  anchor?: PatternAnchor;

  @ApiPropertyOptional({ enum: PATTERN_COLORS, enumName: 'PatternColors', description: '`same` (default): X is black; `any`: also with the colours exchanged.' })
  @IsOptional()
  @IsIn(PATTERN_COLORS)
  colors?: PatternColors;
}

/** Where the pattern stands on a game's board. */
export class PatternPlacementDto {
  @ApiProperty({ enum: TRANSFORM_NAMES, enumName: 'BoardTransform', description: 'The symmetry turning the pattern as written into the pattern as it lies on the board.' })
  transform: TransformName;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'The board column of the turned pattern\'s left column (0 the left edge).' })
  left: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'The board row of the turned pattern\'s top row (0 the top edge).' })
  top: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The turned pattern\'s width on the board.' })
  width: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The turned pattern\'s height on the board.' })
  height: number;

  @ApiProperty({ description: 'Whether it matched with the colours exchanged (`colors: "any"`): X white, O black.' })
  colorsSwapped: boolean;
}
