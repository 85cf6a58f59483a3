import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { SearchGamesQuery } from '../../catalog/dto/search-games.query.js';

/** The most games one export response may be asked to stop at (`limit`); without a limit there is no bound. */
export const MAX_EXPORT_LIMIT = 1_000_000;

/** `GET /games/export`: the search filters and cursor of `GET /games`, and how many games this response may carry. */
export class ExportGamesQuery extends OmitType(SearchGamesQuery, ['limit'] as const) {
  /**
   * At most this many games in this response, counted when the export starts; when more match, the
   * answer says how to go on (`Link: rel="next"`, and the last NDJSON line or manifest line
   * `{"next": "<cursor>"}`). Without it, every matching game.
   */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_EXPORT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_EXPORT_LIMIT)
  limit?: number;
}
