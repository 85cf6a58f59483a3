import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { JsonValue } from '../../formats/plugin.js';

export class PlyDto {
  /** 1-based. */
  @ApiProperty({ type: 'integer', minimum: 1 })
  ply: number;
  @ApiProperty({ type: 'integer', minimum: 0, nullable: true, description: 'Seat of the player who moved; null for puzzles.' })
  player: number | null;
  /** The move in the format's notation. */
  move: string;
  /** What the ply took off the board, in the same notation. */
  @ApiProperty({ type: [String] })
  captured: string[];
  /** Score after the ply, one entry per seat. */
  @ApiProperty({ type: [Number] })
  score: number[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'What a viewer needs beyond the move (position after it, removed stones…).' })
  details?: Record<string, JsonValue>;
}

export class ReplayDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  gameId: number;
  @ApiProperty({ type: [PlyDto] })
  plies: PlyDto[];
}
