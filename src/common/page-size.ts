import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** A page-size query parameter: an integer from 1 to `max`, `fallback` when absent. */
export function PageSize(max: number, fallback: number): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: max, default: fallback, description: `Page size, 1 to ${max} (default ${fallback}).` }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(max),
  );
}
