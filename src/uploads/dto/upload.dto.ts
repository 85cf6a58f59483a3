import { ApiProperty } from '@nestjs/swagger';

export const UPLOAD_GAME_OUTCOMES = ['indexed', 'stored', 'duplicate'] as const;
export type UploadGameOutcome = (typeof UPLOAD_GAME_OUTCOMES)[number];

/** One game of an uploaded file, in file order. */
export class UploadGameDto {
  /** 0-based place of the game in the file. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  position: number;
  /** First byte of the game in the file (0-based). */
  @ApiProperty({ type: 'integer', minimum: 0 })
  start: number;
  /** Byte after the game's last: the game's bytes are `start` to `end - 1`, served at `/games/{gameId}/raw`. */
  @ApiProperty({ type: 'integer', minimum: 0 })
  end: number;
  @ApiProperty({
    enum: UPLOAD_GAME_OUTCOMES,
    enumName: 'UploadGameOutcome',
    description:
      '`indexed`: a new game, understood and replayed; `stored`: a new game kept without an index (its `reason` says why); ' +
      '`duplicate`: the archive already had these bytes, `gameId` names that game.',
  })
  outcome: UploadGameOutcome;
  /** The game; null when it has been deleted since. */
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true })
  gameId: number | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'integer', format: 'int64' },
    description: 'The other games of the archive that hold this game — in any format, turned, or with colours swapped (docs/identity.md) — oldest first.',
  })
  sameAs: number[];
}

/** A file as uploaded, kept whole, and the games it holds. */
export class UploadDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  id: number;
  /** SHA-256 of the whole file, hex. */
  sha256: string;
  @ApiProperty({ type: 'integer', minimum: 0 })
  size: number;
  mediaType: string;
  @ApiProperty({ type: String, nullable: true })
  filename: string | null;
  /** The account that published the file, and so owns its games; null for none. */
  @ApiProperty({ type: String, nullable: true })
  owner: string | null;
  /** The format that found the games, when a plugin did. */
  @ApiProperty({ type: String, nullable: true })
  publisher: string | null;
  @ApiProperty({ type: String, nullable: true })
  version: string | null;
  @ApiProperty({ type: String, format: 'date-time' })
  uploadedAt: string;
  @ApiProperty({ type: [UploadGameDto] })
  games: UploadGameDto[];
}
