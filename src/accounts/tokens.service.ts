import { Injectable } from '@nestjs/common';
import { ProblemException } from '../common/problem-codes.js';
import { AccountsRepository } from './accounts.repository.js';
import type { TokenRow } from './accounts.repository.js';
import { AuditRepository } from './audit.repository.js';
import type { AuditRow } from './audit.repository.js';
import { Credentials, newSecret, tokenText } from './credentials.js';
import type { AuditPageDto, AuditQuery, AuditEntryDto } from './dto/audit.dto.js';
import type { CreatedTokenDto, CreateTokenDto, TokenDto, TokenListDto } from './dto/token.dto.js';
import type { Scope } from './scopes.js';

/** Tokens made, listed and revoked, and the audit trail read: the admins' use cases. */
@Injectable()
export class TokensService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly audit: AuditRepository,
    private readonly credentials: Credentials,
  ) {}

  async create(body: CreateTokenDto): Promise<CreatedTokenDto> {
    const expiresAt = body.expiresAt === undefined ? null : new Date(body.expiresAt);
    if (expiresAt !== null && expiresAt.getTime() <= Date.now()) {
      throw new ProblemException(400, 'request.invalid', `expiresAt must be in the future, not ${body.expiresAt}`);
    }
    const { secret, sha256 } = newSecret();
    const row = await this.accounts.createToken({ account: body.account, name: body.name, scopes: body.scopes, secretSha256: sha256, expiresAt });
    return { ...toTokenDto(row), token: tokenText(row.id, secret) };
  }

  async list(): Promise<TokenListDto> {
    return { items: (await this.accounts.listTokens(undefined)).map(toTokenDto) };
  }

  /** Revokes a token at once on this node, and on the others within TOKEN_CACHE_MS. */
  async revoke(id: string): Promise<void> {
    const revoked = await this.accounts.revokeToken(id);
    this.credentials.forget(id);
    if (!revoked) throw new ProblemException(404, 'token.not_found', `there is no token ${id} (or it was revoked already)`);
  }

  async auditPage(query: AuditQuery): Promise<AuditPageDto> {
    const limit = query.limit ?? 50;
    const rows = await this.audit.page(
      {
        account: query.account,
        action: query.action,
        from: query.from === undefined ? undefined : new Date(query.from),
        to: query.to === undefined ? undefined : new Date(query.to),
        before: query.cursor,
      },
      limit + 1,
    );
    const page = rows.slice(0, limit);
    return { items: page.map(toAuditDto), next: rows.length > limit ? page[page.length - 1].id : null };
  }
}

function toTokenDto(row: TokenRow): TokenDto {
  return {
    id: Number(row.id),
    account: row.account,
    name: row.name,
    scopes: row.scopes as Scope[],
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

function toAuditDto(row: AuditRow): AuditEntryDto {
  return {
    id: Number(row.id),
    at: row.at.toISOString(),
    account: row.account,
    tokenId: row.token_id,
    action: row.action,
    target: row.target,
    status: row.status,
    requestId: row.request_id,
  };
}
