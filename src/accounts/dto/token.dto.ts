import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ACCOUNT_NAME } from '../../common/account-name.js';
import { SCOPES } from '../scopes.js';
import type { Scope } from '../scopes.js';

/** A token to make: whose, what for, what it may do, until when. */
export class CreateTokenDto {
  /** The account the token acts for (made when new): lower-case letters, digits, `.`, `_`, `-`, at most 64. */
  @ApiProperty({ example: 'club-a', pattern: ACCOUNT_NAME.source })
  @IsString()
  @Matches(ACCOUNT_NAME, { message: 'account must be 1 to 64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit' })
  account: string;

  /** What the token is for, as its holder will recognise it (1 to 200 characters). */
  @ApiProperty({ example: 'uploader laptop', minLength: 1, maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ enum: SCOPES, enumName: 'Scope', isArray: true, example: ['games:write', 'games:delete'] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true, message: `each scope must be one of ${SCOPES.join(', ')}` })
  scopes: Scope[];

  /** When the token stops working (ISO 8601, in the future); never when absent. */
  @ApiPropertyOptional({ type: String, format: 'date-time', example: '2027-06-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  expiresAt?: string;
}

/** A token as listed: never its secret. */
export class TokenDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1 })
  id: number;
  account: string;
  name: string;
  @ApiProperty({ enum: SCOPES, enumName: 'Scope', isArray: true })
  scopes: Scope[];
  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expiresAt: string | null;
  /** When a request last came with it (written at most once a minute). */
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt: string | null;
}

/** A token just made, with its secret: shown in this answer only. */
export class CreatedTokenDto extends TokenDto {
  /** The secret to send as `Authorization: Bearer <token>`; the archive keeps only its hash. */
  token: string;
}

export class TokenListDto {
  @ApiProperty({ type: [TokenDto] })
  items: TokenDto[];
}
