import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BoardPositionBody, GamePositionQuery } from './position-query.dto.js';

/** The deepest tree asked for, in plies from the position. */
export const MAX_TREE_DEPTH = 30;
export const DEFAULT_TREE_DEPTH = 10;
export const DEFAULT_TREE_MIN_GAMES = 1;

/** A tree from a game's position: how deep, and how many games a move needs to be in it. */
export class PositionTreeQuery extends GamePositionQuery {
  /** How many plies below the position the tree goes (1 to 30; 10 when absent). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_TREE_DEPTH, default: DEFAULT_TREE_DEPTH })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_TREE_DEPTH)
  depth?: number;

  /** A move is in the tree when at least this many games (of the filters) played it there (1 when absent). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: DEFAULT_TREE_MIN_GAMES })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  minGames?: number;
}

/** A tree from a position written out (SGF setup, FEN). */
export class BoardTreeBody extends BoardPositionBody {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_TREE_DEPTH, default: DEFAULT_TREE_DEPTH, description: 'How many plies below the position the tree goes.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_TREE_DEPTH)
  depth?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: DEFAULT_TREE_MIN_GAMES, description: 'A move is in the tree when at least this many games played it there.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  minGames?: number;
}
