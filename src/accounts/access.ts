import { ProblemException } from '../common/problem-codes.js';
import type { Caller } from './caller.js';
import type { Requirement, Scope } from './scopes.js';

/**
 * Who may do what: every access decision of the archive is one of these functions. Routes name a
 * {@link Requirement} (the `Requires` decorator), checked by the access guard before the handler;
 * the use cases that touch a game someone owns ask {@link mayActOn}.
 */

/** Refuses a caller who does not meet a route's requirement: 401 without a token, 403 without the scope. */
export function admit(caller: Caller, requirement: Requirement, publicReads: boolean): void {
  if (requirement === 'none') return;
  if (requirement === 'read') {
    if (publicReads || caller.tokenId !== null || caller.scopes.size > 0) return;
    throw new ProblemException(401, 'auth.required', 'this archive keeps its games private (PUBLIC_READS=false): send Authorization: Bearer <token>');
  }
  if (caller.scopes.has(requirement) || caller.scopes.has('admin')) return;
  if (caller.tokenId === null) throw new ProblemException(401, 'auth.required', `this operation needs a token with the scope ${requirement}: send Authorization: Bearer <token>`);
  throw new ProblemException(403, 'auth.scope', `this operation needs the scope ${requirement}, which token ${caller.tokenId} does not hold (it holds ${[...caller.scopes].join(', ') || 'none'})`);
}

/**
 * Refuses a caller acting with `scope` on something `owner` published: admins may act on anything,
 * and so may anyone on an open archive; others on their own account's only (a game nobody owns is
 * the admins').
 */
export function mayActOn(caller: Caller, scope: Scope, owner: string | null, what: string): void {
  admit(caller, scope, true);
  if (isAdmin(caller) || (caller.account !== null && caller.account === owner)) return;
  throw new ProblemException(
    403,
    'auth.forbidden',
    `${what} belongs to ${owner === null ? 'no account (stored before accounts, or while the archive was open): only an admin' : `the account ${owner}: only its tokens or an admin`} may do that, not ${caller.account ?? 'a caller without a token'}`,
  );
}

/**
 * The owner a batch of games acting with `scope` is narrowed to: none for admins, the caller's
 * account for others; 403 when the caller asked for another account's games.
 */
export function ownerScope(caller: Caller, scope: Scope, asked: string | undefined): string | undefined {
  admit(caller, scope, true);
  if (isAdmin(caller)) return asked;
  if (asked !== undefined && asked !== caller.account) {
    throw new ProblemException(403, 'auth.forbidden', `only an admin may act on the games of ${asked}; this token's account is ${caller.account ?? 'none'}`);
  }
  return caller.account ?? undefined;
}

/** The account recorded as the owner of what the caller publishes (null on an open archive without a token). */
export function ownerFor(caller: Caller): string | null {
  return caller.account;
}

export function isAdmin(caller: Caller): boolean {
  return caller.scopes.has('admin');
}
