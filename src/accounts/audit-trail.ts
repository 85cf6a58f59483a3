import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuditRepository } from './audit.repository.js';
import type { AuditEntry } from './audit.repository.js';
import type { Caller } from './caller.js';

const TARGET = 'tabula.auditTarget';

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Names what a write acted on (a new game's, upload's, import's or token's id) for its audit entry. */
export function setAuditTarget(response: Response, target: string | number): void {
  response.locals[TARGET] = String(target);
}

/**
 * Writes the audit trail: one entry per write and per refused write, with the status answered. An
 * entry is written when the answer has gone (or the client went away), from what the route named:
 * the target set by {@link setAuditTarget}, else the route's `{id}`, else the `Location` it answered.
 */
@Injectable()
export class AuditTrail implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Audit');
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly audit: AuditRepository) {}

  /**
   * Records the request's outcome as `action` once its answer is sent, by the caller its credential
   * names then; `pathId` is the route's `{id}` as the path holds it (the request may never reach it).
   */
  follow(request: Request, response: Response, action: string, callerNow: () => Caller, pathId?: string): void {
    response.once('close', () => {
      const caller = callerNow();
      const location = response.getHeader('location');
      const routeId = (request.params?.id as string | undefined) ?? (pathId === undefined ? undefined : safeDecode(pathId));
      const target =
        (response.locals[TARGET] as string | undefined) ?? routeId ?? (typeof location === 'string' ? location.slice(location.lastIndexOf('/') + 1) : null);
      void this.record({
        account: caller.account,
        tokenId: caller.tokenId,
        action,
        // A route's id as the client sent it may be anything (a refused write is recorded too).
        target: target === null ? null : target.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 100),
        status: response.writableFinished ? response.statusCode : 499,
        requestId: String((request as { id?: unknown }).id ?? '') || null,
      });
    });
  }

  /** Records one entry; a failure is logged, never thrown (the write it records has happened). */
  record(entry: AuditEntry): Promise<void> {
    const written = this.audit.record(entry).catch((error: unknown) => {
      this.logger.error(`could not record ${entry.action} ${entry.target ?? ''} (${entry.status}) by ${entry.account ?? 'nobody'}: ${(error as Error).message}`);
    });
    this.pending.add(written);
    return written.finally(() => this.pending.delete(written));
  }

  /** A stopping process writes the entries of the answers it gave before its database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
