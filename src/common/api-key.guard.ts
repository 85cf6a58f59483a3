import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { AppConfig } from './config.js';
import { ProblemException } from './problem-codes.js';

/**
 * Guards writes (uploads, deletes) with `Authorization: Bearer <key>` when API_KEYS is set.
 * Without API_KEYS the archive is open, which the app logs at start-up.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly keyDigests: readonly Buffer[];

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.keyDigests = config.apiKeys.map(digest);
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.keyDigests.length === 0) return true;
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new ProblemException(401, 'auth.required', 'this operation needs an API key: send Authorization: Bearer <key>');
    const given = digest(match[1]);
    // Comparing digests keeps the comparison constant-time whatever the key lengths.
    if (!this.keyDigests.some((known) => timingSafeEqual(known, given))) {
      throw new ProblemException(401, 'auth.invalid', 'the API key is not valid');
    }
    return true;
  }
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}
