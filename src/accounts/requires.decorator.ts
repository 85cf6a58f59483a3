import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Requirement } from './scopes.js';

export const ACCESS_RULE = 'tabula:access';

/** What a route needs of its caller, and the audit trail's name for what it does (writes). */
export interface AccessRule {
  readonly requirement: Requirement;
  readonly audit?: string;
}

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } };

/**
 * Marks a route as needing a token with `scope` (src/accounts/access.ts) and, when `audit` is given,
 * as a write the audit trail records, answered or refused. The spec names the scope in the
 * operation's bearer requirement, so generated clients send their token. Routes without it are reads.
 */
export function Requires(scope: Exclude<Requirement, 'none' | 'read'>, audit?: string): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_RULE, { requirement: scope, audit } satisfies AccessRule),
    ApiSecurity('bearer', [scope]),
    ApiUnauthorizedResponse({ description: 'No token (`auth.required`), or one that is not valid: unknown, revoked, expired (`auth.invalid`).', content: problem }),
    ApiForbiddenResponse({ description: `The token lacks the scope \`${scope}\` (\`auth.scope\`), or its account may not act on this resource (\`auth.forbidden\`).`, content: problem }),
  );
}

/** Marks a route anyone may call, whatever PUBLIC_READS says (/health). */
export function Public(): MethodDecorator & ClassDecorator {
  return SetMetadata(ACCESS_RULE, { requirement: 'none' } satisfies AccessRule);
}
