import { Global, Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { AuditedRoutes } from './audited-routes.js';
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
  imports: [DiscoveryModule],
  controllers: [TokensController],
  providers: [AccountsRepository, AuditRepository, AuditTrail, AuditedRoutes, Credentials, TokensService, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [Credentials, AuditTrail, AuditedRoutes],
})
export class AccountsModule {}
