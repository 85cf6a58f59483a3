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

/** Words the file writes: a comment at the ply it is on, or the game's own (ply 0). */
export class WrittenTextDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: "The ply the text is written at: 0 before the first move or about the whole game (its comment, place, name); a comment in a variation has the ply of its move." })
  ply: number;
  @ApiProperty({ type: String, description: 'As written, trimmed.' })
  text: string;
}

export class ReplayDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  gameId: number;
  @ApiProperty({ type: [PlyDto] })
  plies: PlyDto[];
  @ApiProperty({ type: [WrittenTextDto], description: "The file's comments and the game's own texts, in file order (at most 2,000 and 256 KiB together): what `GET /games?text=` searches, with the event and players." })
  texts: WrittenTextDto[];
}
