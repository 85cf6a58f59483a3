import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { admit } from './access.js';
import { credentialOf } from './caller.js';
import { ACCESS_RULE } from './requires.decorator.js';
import type { AccessRule } from './requires.decorator.js';

const READ: AccessRule = { requirement: 'read' };

/**
 * Every route's access check, before its handler: the route's rule (the `Requires` decorator; a
 * read without one) against the request's credential (the credentials middleware). The audit trail
 * follows the same routes from before the rate limits (src/accounts/audited-routes.ts).
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [context.getHandler(), context.getClass()]) ?? READ;
    const credential = credentialOf(request);
    if (rule.requirement === 'none') return true;
    if ('failure' in credential) throw credential.failure;
    if ('invalid' in credential) throw new ProblemException(401, 'auth.invalid', credential.invalid);
    admit(credential.caller, rule.requirement, this.config.PUBLIC_READS);
    return true;
  }
}
