import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccessGuard } from './access.guard.js';
import { AccountsRepository } from './accounts.repository.js';
import { AuditRepository } from './audit.repository.js';
import { AuditTrail } from './audit-trail.js';
import { Credentials } from './credentials.js';
import { TokensController } from './tokens.controller.js';
import { TokensService } from './tokens.service.js';

/** Accounts, tokens, the audit trail, and the guard that decides every route's access. */
@Global()
@Module({
  controllers: [TokensController],
  providers: [AccountsRepository, AuditRepository, AuditTrail, Credentials, TokensService, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [Credentials, AuditTrail],
})
export class AccountsModule {}
