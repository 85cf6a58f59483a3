import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, ValidateBy } from 'class-validator';
import { FAMILIES } from '../../formats/plugin.js';
import type { Family } from '../../formats/plugin.js';

/** The most ids one `POST /games/export` may name. */
export const MAX_EXPORT_IDS = 10_000;

/** Every element an integer from 1 to 2^53-1 (a JSON number past that is not an exact id). */
const PositiveSafeIntegers = () =>
  ValidateBy({
    name: 'positiveSafeIntegers',
    validator: {
      validate: (value: unknown) => Array.isArray(value) && value.every((id) => Number.isSafeInteger(id) && id >= 1),
      defaultMessage: () => 'each of ids must be an integer from 1 to 9007199254740991',
    },
  });

/** `POST /games/export`: the games to export, by id. */
export class ExportSelectionDto {
  /** The games, in the order to write them; an id named twice is written once, where it first appears. */
  @ApiProperty({ type: 'array', items: { type: 'integer', format: 'int64', minimum: 1 }, minItems: 1, maxItems: MAX_EXPORT_IDS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_EXPORT_IDS)
  @PositiveSafeIntegers()
  ids: number[];

  /** Needed for a collection (`application/x-go-sgf`, `application/x-pdn`): the family it is written for. */
  @ApiPropertyOptional({ enum: FAMILIES, enumName: 'Family' })
  @IsOptional()
  @IsIn(FAMILIES)
  family?: Family;
}
