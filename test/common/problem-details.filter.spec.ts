import type { ArgumentsHost } from '@nestjs/common';
import pg from 'pg';
import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable, isStorageFull } from '../../src/common/database-errors.js';
import { PROBLEM_CODES } from '../../src/common/problem-codes.js';
import { ProblemDetailsFilter } from '../../src/common/problem-details.filter.js';

/** A server error as node-postgres raises it: a DatabaseError carrying the SQLSTATE in `code`. */
function pgError(code: string, message: string): Error {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.severity = 'FATAL';
  error.code = code;
  return error;
}

/** The same error as a repository call sees it: wrapped by TypeORM, the driver's error in `driverError`. */
const viaTypeorm = (error: Error): QueryFailedError => new QueryFailedError('INSERT INTO games …', [], error);

function enospc(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error("ENOSPC: no space left on device, write '/data/imports/…/body'");
  error.code = 'ENOSPC';
  error.errno = -28;
  error.syscall = 'write';
  return error;
}

/** What the filter answers for an error thrown by a handler: status, headers and problem body. */
function answerTo(exception: unknown): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const answer = { status: 0, headers: {} as Record<string, string>, body: {} as Record<string, unknown> };
  const response = {
    headersSent: false,
    setHeader: (name: string, value: string) => (answer.headers[name.toLowerCase()] = value),
    status(code: number) {
      answer.status = code;
      return this;
    },
    type(value: string) {
      answer.headers['content-type'] = value;
      return this;
    },
    send(text: string) {
      answer.body = JSON.parse(text) as Record<string, unknown>;
      return this;
    },
  };
  const request = { method: 'POST', originalUrl: '/games', id: 'test' };
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }) } as unknown as ArgumentsHost;
  const filter = new ProblemDetailsFilter();
  (filter as unknown as { logger: { warn(): void; error(): void } }).logger = { warn: () => undefined, error: () => undefined };
  filter.catch(exception, host);
  return answer;
}

describe('problem answers for a service that cannot work for now', () => {
  it.each([
    ['55000 (the database does not accept connections), from pg', pgError('55000', 'database "tabula" is not currently accepting connections')],
    ['55000 wrapped by TypeORM', viaTypeorm(pgError('55000', 'database "tabula" is not currently accepting connections'))],
    ['57P03 (cannot connect now), from pg', pgError('57P03', 'the database system is not yet accepting connections')],
    ['57P03 wrapped by TypeORM', viaTypeorm(pgError('57P03', 'the database system is in recovery mode'))],
  ])('answers %s with 503 service.unavailable and Retry-After', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isStorageFull(error)).toBe(false);
    const answer = answerTo(error);
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.body).toMatchObject({ status: 503, code: 'service.unavailable', requestId: 'test' });
  });

  it.each([
    ['53100 (disk full), from pg', pgError('53100', 'could not extend file "base/16384/16402": No space left on device')],
    ['53100 wrapped by TypeORM', viaTypeorm(pgError('53100', 'could not extend file "base/16384/16402": No space left on device'))],
    ['ENOSPC writing the import spool', enospc()],
    ['ENOSPC as the cause of another error', new Error('the spool failed', { cause: enospc() })],
    ['ENOSPC wrapped by TypeORM (an embedded database writing its WAL)', viaTypeorm(enospc())],
  ])('answers %s with 507 service.storage_full and Retry-After', (_name, error) => {
    expect(isStorageFull(error)).toBe(true);
    const answer = answerTo(error);
    expect(answer.status).toBe(507);
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.body).toMatchObject({ status: 507, code: 'service.storage_full', title: 'Insufficient storage', requestId: 'test' });
    expect(String(answer.body.detail)).not.toContain('/data');
  });

  it('still answers a bad query 500 internal, without Retry-After', () => {
    const answer = answerTo(viaTypeorm(pgError('42703', 'column "nope" does not exist')));
    expect(answer.status).toBe(500);
    expect(answer.headers['retry-after']).toBeUndefined();
    expect(answer.body).toMatchObject({ code: 'internal' });
  });

  it('lists the new code among the codes, before internal', () => {
    expect(PROBLEM_CODES).toContain('service.storage_full');
    expect(PROBLEM_CODES.at(-1)).toBe('internal');
  });
});
