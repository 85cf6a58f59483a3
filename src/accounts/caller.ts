import type { Scope } from './scopes.js';
import { SCOPES } from './scopes.js';

/**
 * Who sent a request, as the archive's access decisions see it (src/accounts/access.ts): an account
 * with the scopes its token holds, or nobody.
 */
export interface Caller {
  /** The account acting; null for nobody, or for anyone at all on an open archive. */
  readonly account: string | null;
  /** The token's id (`12`), or `key:<8 hex>` for a key of API_KEYS; null without a token. Never a secret. */
  readonly tokenId: string | null;
  readonly scopes: ReadonlySet<Scope>;
}

/** A request without a token on an archive without API_KEYS: may do everything, owns nothing. */
export const OPEN_CALLER: Caller = Object.freeze({ account: null, tokenId: null, scopes: new Set<Scope>(SCOPES) });

/** A request without a token on a closed archive. */
export const NOBODY: Caller = Object.freeze({ account: null, tokenId: null, scopes: new Set<Scope>() });

/**
 * What a request's credentials came to: a caller, a token that is not valid (unknown, revoked,
 * expired, in the URL), or an error reading it (the database did not answer).
 */
export type Credential = { readonly caller: Caller } | { readonly invalid: string } | { readonly failure: unknown };

const CREDENTIAL = Symbol('tabula.credential');

type WithCredential = { [CREDENTIAL]?: Credential };

export function setCredential(request: object, credential: Credential): void {
  (request as WithCredential)[CREDENTIAL] = credential;
}

/** The request's credential, as the credentials middleware left it (nobody when it did not run). */
export function credentialOf(request: object): Credential {
  return (request as WithCredential)[CREDENTIAL] ?? { caller: NOBODY };
}

/** The request's caller when its credential is valid, else nobody (the access guard refuses an invalid one). */
export function callerOf(request: object): Caller {
  const credential = credentialOf(request);
  return 'caller' in credential ? credential.caller : NOBODY;
}
