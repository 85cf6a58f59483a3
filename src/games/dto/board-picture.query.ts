import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { DEFAULT_SIZE, MAX_SIZE, MIN_SIZE } from '../../render/index.js';
import type { Orientation } from '../../render/index.js';
import { QueryBoolean } from '../../common/query-boolean.js';

export const PICTURE_FORMATS = ['svg', 'png'] as const;
export type PictureFormat = (typeof PICTURE_FORMATS)[number];

/** `left,top,width,height`, the width and height at least 1. */
export const AREA_PATTERN = /^\d{1,4},\d{1,4},0*[1-9]\d{0,3},0*[1-9]\d{0,3}$/;

export class BoardPictureQuery {
  /** The position after this many plies: 0 is the start, the default the final position. */
  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'ply must be a whole number' })
  @Min(0)
  ply?: number;

  /** Width of the picture in pixels (default 480). */
  @ApiPropertyOptional({ type: 'integer', minimum: MIN_SIZE, maximum: MAX_SIZE, default: DEFAULT_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'size must be a whole number of pixels' })
  @Min(MIN_SIZE)
  @Max(MAX_SIZE)
  size?: number;

  /** Draw the coordinates along the edges (default true). */
  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'coordinates must be true or false' })
  coordinates?: boolean;

  /** The side at the bottom for Go (default black) and draughts (default white); Dots and peg boards have one view. */
  @IsOptional()
  @IsIn(['white', 'black'], { message: 'orientation must be white or black' })
  orientation?: Orientation;

  /**
   * A rectangle of points (squares) to frame: `left,top,width,height` in the board's columns and rows
   * counted from 0 at the top-left as recorded, e.g. the `where` of a pattern search's game. Cut to the board.
   */
  @ApiPropertyOptional({ type: String, pattern: AREA_PATTERN.source, example: '13,0,6,7' })
  @IsOptional()
  @Matches(AREA_PATTERN, { message: 'area must be left,top,width,height: four whole numbers, width and height at least 1' })
  area?: string;

  /** `svg` (default) or `png`: the same picture drawn as pixels, for places that show no SVG (chat and forum embeds). */
  @ApiPropertyOptional({ enum: PICTURE_FORMATS, default: 'svg' })
  @IsOptional()
  @IsIn(PICTURE_FORMATS, { message: 'format must be svg or png' })
  format?: PictureFormat;
}
