import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GameSummaryDto } from '../../catalog/dto/game.dto.js';
import { TRANSFORM_NAMES } from '../../formats/families/positions.js';
import type { TransformName } from '../../formats/families/positions.js';

/** A game reaching the position. */
export class PositionGameDto extends GameSummaryDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The first ply after which the game reaches the position.' })
  ply: number;

  @ApiProperty({ enum: TRANSFORM_NAMES, enumName: 'BoardTransform', description: "The symmetry that turns the queried board into the game's board at that ply (`identity` when they agree as they stand)." })
  transform: TransformName;
}

export class PositionGamesPageDto {
  @ApiProperty({ type: [PositionGameDto] })
  items: PositionGameDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` (alone) for the next page; null on the last page.' })
  next: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many games reach the position (with the filters).' })
  total: number;
}

/** How many games of a set were played in a year. */
export class YearGamesDto {
  @ApiProperty({ type: 'integer', description: 'The year the games were played.' })
  year: number;

  @ApiProperty({ type: 'integer', minimum: 1 })
  games: number;
}

/** A move played from the position. */
export class ExplorerMoveDto {
  @ApiProperty({ description: 'The move in the orientation of the queried board: SGF letters for Go and Dots (`pd`, `` for a pass), PDN squares for draughts (`c3-d4`, `c3:e5:g3`), `x,y-x,y` for peg solitaire.' })
  move: string;

  @ApiProperty({ description: 'The move as players write it: `Q16`, `pass`, `c3-d4`.' })
  notation: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Games that played it (each game counted once, by its first arrival at the position).' })
  games: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Those games by result: the winner\'s colour (`black`, `white`…), `draw`, or `unknown` (no result recorded).',
  })
  results: Record<string, number>;

  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'The last day one of those games was played, where recorded.' })
  lastPlayed: string | null;

  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, description: 'The newest of those games (the last stored), to open.' })
  game: number;

  @ApiPropertyOptional({ type: [YearGamesDto], description: 'With `by=year`: those games by the year they were played, oldest first (undated games in none).' })
  years?: YearGamesDto[];

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'With `by=year`: the mean year of those games that are dated, to one decimal; null when none is.' })
  averageYear?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'With `by=year`, Go: the mean rank of the players who played the move, where known, to one decimal, on the scale -29 (30k) … -1 (2k), 0 (1k), 1 (1d) … 9 (9d), 10 (1p) … 18 (9p); null when no rank is known.',
  })
  averageRank?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'With `by=year`, Go: `averageRank` rounded to the nearest rank and written as players write it (`4d`, `12k`, `3p`).' })
  averageRankText?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'With `by=year`, other families: the mean rating of the players who played the move, where known, rounded; null when none is known.' })
  averageRating?: number | null;
}

export class ExplorerDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many games reach the position (with the filters).' })
  games: number;

  @ApiProperty({ type: [ExplorerMoveDto], description: 'The moves played next, most played first.' })
  moves: ExplorerMoveDto[];
}

/** A position's history: the games reaching it by the year they were played. */
export class PositionHistoryDto {
  @ApiProperty({ type: [YearGamesDto], description: 'The games reaching the position (each counted once, with the filters) by the year they were played, oldest first; years without a game left out.' })
  years: YearGamesDto[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'The games reaching it whose day of play is not recorded.' })
  undated: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many games reach the position (with the filters): the years\' games and the undated ones.' })
  games: number;
}
