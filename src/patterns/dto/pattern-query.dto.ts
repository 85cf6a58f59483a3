import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { SearchGamesQuery } from '../../catalog/dto/search-games.query.js';
import { FAMILIES } from '../../formats/plugin.js';
import type { Family } from '../../formats/plugin.js';
import { TRANSFORM_NAMES } from '../../formats/families/positions.js';
import type { TransformName } from '../../formats/families/positions.js';

export const PATTERN_ANCHORS = ['anywhere', 'corner', 'edge'] as const;
export type PatternAnchor = (typeof PATTERN_ANCHORS)[number];
export const PATTERN_COLORS = ['same', 'any'] as const;
export type PatternColors = (typeof PATTERN_COLORS)[number];
export const PATTERN_TO_MOVE = ['black', 'white'] as const;
export type PatternToMove = (typeof PATTERN_TO_MOVE)[number];

/** Bounds on one side's pieces: `[lo, hi]`, either end null for open. */
export class DraughtsSideBoundsDto {
  @ApiPropertyOptional({ type: 'array', items: { type: 'integer', minimum: 0, maximum: 12, nullable: true }, minItems: 2, maxItems: 2, example: [4, 8], description: 'Men: at least lo, at most hi.' })
  men?: (number | null)[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'integer', minimum: 0, maximum: 12, nullable: true }, minItems: 2, maxItems: 2, example: [1, null], description: 'Kings: at least lo, at most hi.' })
  kings?: (number | null)[];
}

/** Draughts material: bounds per side, each optional. */
export class DraughtsMaterialDto {
  @ApiPropertyOptional({ type: DraughtsSideBoundsDto })
  white?: DraughtsSideBoundsDto;

  @ApiPropertyOptional({ type: DraughtsSideBoundsDto })
  black?: DraughtsSideBoundsDto;
}

/** A pattern and where it may lie, with the filters of GET /games (newest first always: no `sort`), a page size and a cursor. */
export class PatternSearchBody extends OmitType(SearchGamesQuery, ['sort', 'family'] as const) {
  /** `go` or `dots`; any other family has no patterns (400 `pattern.family`). */
  @ApiPropertyOptional({ enum: FAMILIES, enumName: 'Family', description: '`go`, `dots` or `checkers` (draughts: by squares and material; other families have no patterns: 400 `pattern.family`). Not needed beside a cursor.' })
  @IsOptional()
  @IsIn(FAMILIES)
  family?: Family;

  @ApiPropertyOptional({
    type: [String],
    example: ['..X*', '.OX.', '....'],
    description:
      'Rows of equal length: `X` a black stone (Dots: a live dot of the first player), `O` a white stone (the second player\'s live dot), `.` an empty point (Dots: not enclosed), `*` anything (Dots: the only cell a captured dot or an enclosed point matches). Draughts: 8 rows of 8, rank 8 first, files a to h; on dark squares `w` `b` a man, `W` `B` a king, `.` empty, `*` anything; light squares `-`. Not needed beside a cursor.',
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

  @ApiPropertyOptional({
    type: DraughtsMaterialDto,
    description: 'Draughts (`family: "checkers"`) only: bounds on the men and kings of each side at the ply matched, `[lo, hi]` each (either may be null); with a `pattern`, both must hold at the same ply.',
  })
  @IsOptional()
  @IsObject()
  material?: DraughtsMaterialDto;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'The first ply searched (0, the start, by default). Not needed beside a cursor.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  plyFrom?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'The last ply searched (the game\'s end by default). Not needed beside a cursor.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  plyTo?: number;

  @ApiPropertyOptional({
    enum: PATTERN_TO_MOVE,
    enumName: 'PatternToMove',
    description:
      'Go and Dots: who plays next after the ply matched, the side of the pattern\'s X (`black`) or O (`white`): the colour of the next ply\'s stone, or after a pass or at the end the other side than the last mover (Dots: black the first player). With the colours exchanged, the other side on the board.',
  })
  @IsOptional()
  @IsIn(PATTERN_TO_MOVE)
  toMove?: PatternToMove;

  @ApiPropertyOptional({
    type: [String],
    example: ['....', '..1.', '.2..'],
    description:
      'Go and Dots: numbered moves after the ply matched — rows as the pattern\'s, `1` to `9` over its X and O cells (the stone\'s colour), `.` elsewhere. The numbered cells are empty at the ply matched; move 1 is played there later, then move 2, and so on, other moves between them unless `strict`.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(64)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  sequence?: string[];

  @ApiPropertyOptional({ description: 'With a `sequence`: its moves are the plies right after the one matched, one after another (no other move between them).' })
  @IsOptional()
  @IsBoolean()
  strict?: boolean;
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
