import type { ClassConstructor } from 'class-transformer';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { ValidationError } from 'class-validator';
import type { Request } from 'express';
import { ProblemException } from '../common/problem-codes.js';
import { readBody } from './upload-body.js';

/**
 * The deepest nesting of arrays and objects a JSON body may have. Bodies are small selections (a
 * few levels deep); the bound keeps what is done to the parsed value afterwards (conversion into a
 * DTO, validation: both recursive) far from the stack's end.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep `text` nests `[` and `{` outside strings, counted in one pass without recursion and
 * without parsing; it stops counting once past `stopAbove`. Malformed text is left to JSON.parse.
 */
export function nestingDepth(text: string, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Reads a JSON request body into a DTO and validates it as the global pipe validates queries
 * (unknown properties refused). The application parses no bodies itself (uploads are read raw), so
 * the routes that take JSON read it here, bounded: past `maxBytes` the rest is not read.
 */
export async function readJsonBody<T extends object>(request: Request, type: ClassConstructor<T>, maxBytes: number): Promise<T> {
  const invalid = (detail: string) => new ProblemException(400, 'request.invalid', detail);
  const parsed = await readJson(request, maxBytes);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('the body must be a JSON object');
  const value = plainToInstance(type, parsed);
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw invalid(messagesOf(errors).join('; '));
  return value;
}

/** Reads a JSON request body of any kind (an array, say), bounded as {@link readJsonBody} reads one: the parsed value, unchecked. */
export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const invalid = (detail: string) => new ProblemException(400, 'request.invalid', detail);
  const body = await readBody(request, maxBytes, () => invalid(`the body is larger than ${maxBytes} bytes`));
  const text = body.toString('utf8');
  const depth = nestingDepth(text, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) throw invalid(`the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels, the most a JSON body may`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(`the body is not JSON: ${(error as Error).message}`);
  }
  return parsed;
}

/** Every message of class-validator's errors, nested ones too. */
export function messagesOf(errors: readonly ValidationError[]): string[] {
  return errors.flatMap((error) => [...Object.values(error.constraints ?? {}), ...messagesOf(error.children ?? [])]);
}
