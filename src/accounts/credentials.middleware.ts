import type { NextFunction, Request, Response } from 'express';
import { setCredential } from './caller.js';
import type { Credentials } from './credentials.js';

/**
 * Reads every request's credential once, before the rate limits (which count a token's requests
 * against the token) and the routes (whose access guard decides with it).
 */
export function readCredentials(credentials: Credentials) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const url = request.originalUrl ?? request.url;
    const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    credentials.resolve(request.headers.authorization, query).then(
      (credential) => {
        setCredential(request, credential);
        next();
      },
      (failure: unknown) => {
        setCredential(request, { failure });
        next();
      },
    );
  };
}
