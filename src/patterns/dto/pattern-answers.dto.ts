import { ApiProperty } from '@nestjs/swagger';
import { GameSummaryDto } from '../../catalog/dto/game.dto.js';
import { PatternPlacementDto } from './pattern-query.dto.js';

/** A game in which the pattern appears. */
export class PatternGameDto extends GameSummaryDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The first ply after which the pattern is on the board (0: the start, with setup stones).' })
  ply: number;

  @ApiProperty({ type: PatternPlacementDto, description: 'Where it is then.' })
  where: PatternPlacementDto;
}

/** A move played next in the pattern's area or next to it. */
export class PatternContinuationDto {
  @ApiProperty({ type: 'integer', minimum: -1, description: 'Its column in the pattern as written: 0 the pattern\'s first column, -1 or the pattern\'s width just outside it.' })
  x: number;

  @ApiProperty({ type: 'integer', minimum: -1, description: 'Its row in the pattern as written, as `x`.' })
  y: number;

  @ApiProperty({ enum: ['X', 'O'], description: 'Who played it, in the pattern\'s colours.' })
  color: 'X' | 'O';

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Games that played it (each game once: its first move in the area after the pattern\'s first appearance).' })
  games: number;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'Those games by result: the winner\'s colour on the board (`black`, `white`…), `draw`, or `unknown`.' })
  results: Record<string, number>;

  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'The last day one of those games was played, where recorded.' })
  lastPlayed: string | null;

  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, description: 'The newest of those games (the last stored), to open.' })
  game: number;
}

export class PatternGamesPageDto {
  @ApiProperty({ type: [PatternGameDto] })
  items: PatternGameDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` (alone) for the next page; null on the last page.' })
  next: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many games the pattern appears in (with the filters).' })
  total: number;

  @ApiProperty({ type: [PatternContinuationDto], description: 'The moves played next in the pattern\'s area or next to it, over all those games, most played first.' })
  continuations: PatternContinuationDto[];
}
