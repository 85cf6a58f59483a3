import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PageSize } from '../../common/page-size.js';
import { ACCOUNT_NAME } from '../../common/account-name.js';

/** Which entries of the audit trail to page through, newest first. */
export class AuditQuery {
  /** Entries of this account only. */
  @IsOptional()
  @IsString()
  @Matches(ACCOUNT_NAME, { message: 'account must be an account name (lower-case letters, digits, ".", "_", "-")' })
  account?: string;

  /** Entries of this action only (`game.delete`, `token.create`, …). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  action?: string;

  /** Entries at or after this instant (ISO 8601). */
  @ApiPropertyOptional({ type: String, format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** Entries before this instant (ISO 8601). */
  @ApiPropertyOptional({ type: String, format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @PageSize(500, 50)
  limit?: number;

  /** The `next` of the previous page (with the same filters). */
  @IsOptional()
  @IsString()
  @Matches(/^[1-9]\d{0,17}$/, { message: 'cursor must be the next of a previous page' })
  cursor?: string;
}

/** One write or refused write. */
export class AuditEntryDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  id: number;
  @ApiProperty({ type: String, format: 'date-time' })
  at: string;
  /** The account that acted; null for a caller without a token. */
  @ApiProperty({ type: String, nullable: true })
  account: string | null;
  /** The token's id, or `key:<8 hex>` for a key of API_KEYS; null without a token. */
  @ApiProperty({ type: String, nullable: true })
  tokenId: string | null;
  /** What was done: `game.upload`, `collection.upload`, `import.create`, `game.delete`, `game.reindex`, `games.reindex`, `token.create`, `token.revoke`, `game.archive`. */
  action: string;
  /** The id of the game, upload, import or token acted on, when there is one. */
  @ApiProperty({ type: String, nullable: true })
  target: string | null;
  /** The HTTP status answered (499: the client went away first). */
  @ApiProperty({ type: 'integer' })
  status: number;
  @ApiProperty({ type: String, nullable: true })
  requestId: string | null;
}

export class AuditPageDto {
  @ApiProperty({ type: [AuditEntryDto] })
  items: AuditEntryDto[];
  /** Pass as `cursor` for the next page; null on the last. */
  @ApiProperty({ type: String, nullable: true })
  next: string | null;
}
