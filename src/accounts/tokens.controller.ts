import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { readJsonBody } from '../http/json-body.js';
import { ProblemException } from '../common/problem-codes.js';
import { setAuditTarget } from './audit-trail.js';
import { AuditPageDto, AuditQuery } from './dto/audit.dto.js';
import { CreatedTokenDto, CreateTokenDto, TokenListDto } from './dto/token.dto.js';
import { Requires } from './requires.decorator.js';
import { TokensService } from './tokens.service.js';

/** A token's request is a few hundred bytes. */
const MAX_BODY_BYTES = 16 * 1024;
const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };

@ApiTags('accounts')
@Controller()
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post('tokens')
  @Requires('admin', 'token.create')
  @ApiOperation({
    operationId: 'createToken',
    summary: 'Make a token for an account',
    description: 'The account is made when it is new. The answer holds the secret (`token`), shown this once: the archive keeps only its hash.',
  })
  @ApiBody({ type: CreateTokenDto })
  @ApiCreatedResponse({ type: CreatedTokenDto })
  @ApiResponse({ status: 400, description: 'A bad account name, an unknown scope, a name over 200 characters, an expiry in the past.', content: problem })
  async create(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<CreatedTokenDto> {
    const token = await this.tokens.create(await readJsonBody(request, CreateTokenDto, MAX_BODY_BYTES));
    setAuditTarget(response, token.id);
    return token;
  }

  @Get('tokens')
  @Requires('admin')
  @ApiOperation({ operationId: 'listTokens', summary: 'The tokens not revoked, without their secrets' })
  @ApiOkResponse({ type: TokenListDto })
  list(): Promise<TokenListDto> {
    return this.tokens.list();
  }

  @Delete('tokens/:id')
  @HttpCode(204)
  @Requires('admin', 'token.revoke')
  @ApiParam({ name: 'id', schema: { type: 'integer', format: 'int64', minimum: 1 } })
  @ApiOperation({ operationId: 'revokeToken', summary: 'Revoke a token', description: 'At once on the node answering, on every other node within TOKEN_CACHE_MS (at most 5 s).' })
  @ApiNoContentResponse({ description: 'Revoked.' })
  @ApiNotFoundResponse({ description: 'No token of that id, or it was revoked already (`token.not_found`).', content: problem })
  @ApiResponse({ status: 400, description: 'The id is not a positive integer.', content: problem })
  revoke(@Param('id') id: string): Promise<void> {
    if (!/^[1-9]\d{0,17}$/.test(id)) throw new ProblemException(400, 'request.invalid', `a token id is a positive integer, not "${id.slice(0, 40)}"`);
    return this.tokens.revoke(id);
  }

  @Get('audit')
  @Requires('admin')
  @ApiOperation({ operationId: 'listAudit', summary: 'The audit trail, newest first', description: 'Every write and every refused write: who, with which token, what, on what, with which answer.' })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiResponse({ status: 400, description: 'A bad filter or cursor.', content: problem })
  audit(@Query() query: AuditQuery): Promise<AuditPageDto> {
    return this.tokens.auditPage(query);
  }
}
