import type { ClassConstructor } from 'class-transformer';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { ValidationError } from 'class-validator';
import type { Request } from 'express';
import { ProblemException } from '../../common/problem-codes.js';
import { readBody } from '../upload-body.js';

/**
 * Reads a JSON request body into a DTO and validates it as the global pipe validates queries
 * (unknown properties refused). The application parses no bodies itself (uploads are read raw), so
 * the routes that take JSON read it here, bounded: past `maxBytes` the rest is not read.
 */
export async function readJsonBody<T extends object>(request: Request, type: ClassConstructor<T>, maxBytes: number): Promise<T> {
  const invalid = (detail: string) => new ProblemException(400, 'request.invalid', detail);
  const body = await readBody(request, maxBytes, () => invalid(`the body is larger than ${maxBytes} bytes`));
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw invalid(`the body is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('the body must be a JSON object');
  const value = plainToInstance(type, parsed);
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw invalid(messagesOf(errors).join('; '));
  return value;
}

function messagesOf(errors: readonly ValidationError[]): string[] {
  return errors.flatMap((error) => [...Object.values(error.constraints ?? {}), ...messagesOf(error.children ?? [])]);
}
