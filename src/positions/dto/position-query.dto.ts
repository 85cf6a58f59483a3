import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { IsGameId } from '../../http/game-id.pipe.js';
import { SearchGamesQuery } from '../../catalog/dto/search-games.query.js';
import { QUERY_FAMILIES } from '../../formats/families/position-query.js';
import type { QueryFamily } from '../../formats/families/position-query.js';

export const SYMMETRY_MODES = ['all', 'none'] as const;
export type SymmetryMode = (typeof SYMMETRY_MODES)[number];

/** The filters of GET /games (newest first always: no `sort`), a page size and a cursor, and how positions match. */
export class PositionFiltersQuery extends OmitType(SearchGamesQuery, ['sort'] as const) {
  /** `all` (default): the position turned by any symmetry of the board matches; `none`: only as it stands. */
  @ApiPropertyOptional({ enum: SYMMETRY_MODES, enumName: 'SymmetryMode' })
  @IsOptional()
  @IsIn(SYMMETRY_MODES)
  symmetry?: SymmetryMode;
}

/** A position named by a game of the archive and a ply of its main line. */
export class GamePositionQuery extends PositionFiltersQuery {
  /** The game whose position is meant. Not needed beside a cursor. */
  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 1 })
  @IsOptional()
  @IsGameId()
  game?: string;

  /** The ply after which the position stands: 0 is the start (with handicap or setup stones). */
  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  ply?: number;
}

/** A position written out: a Go or Dots board as an SGF root node, a draughts board as a PDN FEN. */
export class BoardPositionBody extends OmitType(PositionFiltersQuery, ['family'] as const) {
  @ApiProperty({ enum: QUERY_FAMILIES, enumName: 'PositionFamily' })
  @IsIn(QUERY_FAMILIES)
  family: QueryFamily;

  /** Go and Dots: one SGF node with the board's size and stones, and the side to move: `(;SZ[19]AB[pd][dp]AW[dd]PL[W])`. */
  @IsOptional()
  @IsString()
  @MaxLength(20_000)
  sgf?: string;

  /** Draughts: a PDN FEN, squares by name or by number 1–32: `W:Wc3,e3,Kd8:Bf6,h8` or `W:W21,22,K30:B1-3`. */
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  fen?: string;
}

export const EXPLORER_BREAKDOWNS = ['year'] as const;
export type ExplorerBreakdown = (typeof EXPLORER_BREAKDOWNS)[number];

/** The explorer's position named by a game and a ply, and how to break its moves down. */
export class ExplorerGameQuery extends GamePositionQuery {
  /** `year`: each move also by the year its games were played, with their average year and players' rank or rating. */
  @ApiPropertyOptional({ enum: EXPLORER_BREAKDOWNS, enumName: 'ExplorerBreakdown' })
  @IsOptional()
  @IsIn(EXPLORER_BREAKDOWNS)
  by?: ExplorerBreakdown;
}

/** The explorer's position written out, and how to break its moves down. */
export class ExplorerBoardBody extends BoardPositionBody {
  /** As `by` of GET /positions/explorer. */
  @ApiPropertyOptional({ enum: EXPLORER_BREAKDOWNS, enumName: 'ExplorerBreakdown' })
  @IsOptional()
  @IsIn(EXPLORER_BREAKDOWNS)
  by?: ExplorerBreakdown;
}
