/**
 * What a token may do. Reads need no scope (any token, when PUBLIC_READS=false); a write names the
 * scope it needs (src/accounts/access.ts).
 */
export const SCOPES = ['games:write', 'games:delete', 'games:reindex', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** What a route needs of its caller: nothing (/health), a read, or a scope. */
export type Requirement = 'none' | 'read' | Scope;

/** The account of API_KEYS' keys, and the account of the games the live Dots server archives. */
export const ADMIN_ACCOUNT = 'admin';
export const DOTS_SERVER_ACCOUNT = 'dots-server';
