import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { admit } from './access.js';
import { AuditTrail } from './audit-trail.js';
import { credentialOf, NOBODY } from './caller.js';
import { ACCESS_RULE } from './requires.decorator.js';
import type { AccessRule } from './requires.decorator.js';

const READ: AccessRule = { requirement: 'read' };

/**
 * Every route's access check, before its handler: the route's rule (the `Requires` decorator; a
 * read without one), the request's credential (the credentials middleware), and the audit entry
 * of a write, refused or not.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly trail: AuditTrail,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [context.getHandler(), context.getClass()]) ?? READ;
    const credential = credentialOf(request);
    if (rule.audit !== undefined) this.trail.follow(request, response, rule.audit, 'caller' in credential ? credential.caller : NOBODY);
    if (rule.requirement === 'none') return true;
    if ('failure' in credential) throw credential.failure;
    if ('invalid' in credential) throw new ProblemException(401, 'auth.invalid', credential.invalid);
    admit(credential.caller, rule.requirement, this.config.PUBLIC_READS);
    return true;
  }
}
