import type { NextFunction, Request, Response } from 'express';
import { makeProblem } from './problem-details.js';
import { sendProblem } from './problem-details.filter.js';

const CONTROL = /[\u0000-\u001F\u007F]/;

/** The first control character (NUL, line breaks, escapes…) in a text value, as U+XXXX, or undefined. */
export function controlCharacterIn(value: string): string | undefined {
  const match = CONTROL.exec(value);
  return match ? `U+${match[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}` : undefined;
}

/**
 * No query parameter of the archive is free binary: a control character in one is a client bug or
 * an attack (NUL cannot even be stored in PostgreSQL text), answered 400 before any route runs.
 */
export function refuseControlCharacters(request: Request, response: Response, next: NextFunction): void {
  for (const [name, value] of Object.entries(request.query)) {
    for (const text of Array.isArray(value) ? value : [value]) {
      const found = typeof text === 'string' ? controlCharacterIn(text) : undefined;
      if (found) {
        sendProblem(request, response, makeProblem(400, 'request.control_character', `the query parameter "${name}" contains the control character ${found}`));
        return;
      }
    }
  }
  next();
}
