/**
 * An account's name: lower-case letters, digits, `.`, `_`, `-`, starting with a letter or digit, at
 * most 64. The accounts' (src/accounts) and every request naming one: a token's account, the audit
 * trail's filter, the games' `owner`.
 */
export const ACCOUNT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
