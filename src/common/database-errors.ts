/**
 * Whether an error means the database cannot be reached or refuses work for now (as opposed to a
 * bad query): connection refused or dropped, pool timeouts, server shutting down or starting up,
 * too many connections. Such failures are the service's, temporary, and answered 503.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOENT']);
// SQLSTATE classes 08 (connection exception) and 57P0x (operator intervention, 57P03: cannot
// connect now), 53300 (too many connections), 57014 (a statement cancelled, as by
// statement_timeout), 55000 (object not in prerequisite state: the database does not accept
// connections).
const SQLSTATE = /^(08...|57P0[1-4]|53300|57014|55000)$/;
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection is not established/i,
  /the database system is (starting up|shutting down)/i,
  /Query read timeout/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  return someLink(error, (code, message) => NETWORK_CODES.has(code) || SQLSTATE.test(code) || MESSAGES.some((pattern) => pattern.test(message)));
}

/**
 * Whether an error means a disk is full: the database server's (SQLSTATE 53100, disk_full) or this
 * process's own, writing a spool or an embedded database's files (ENOSPC; EDQUOT, a quota used up).
 * Temporary as well, answered 507 with Retry-After.
 */
export function isStorageFull(error: unknown): boolean {
  return someLink(error, (code) => code === '53100' || code === 'ENOSPC' || code === 'EDQUOT');
}

/**
 * Whether the error or one it wraps (TypeORM's `driverError`, a `cause`, an AggregateError's
 * `errors`) passes the test on its `code` and `message`.
 */
function someLink(error: unknown, test: (code: string, message: string) => boolean, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const candidate = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof candidate.code === 'string' ? candidate.code : '';
  const message = typeof candidate.message === 'string' ? candidate.message : '';
  if (test(code, message)) return true;
  if (Array.isArray(candidate.errors) && candidate.errors.some((inner) => someLink(inner, test, depth + 1))) return true;
  return someLink(candidate.driverError, test, depth + 1) || someLink(candidate.cause, test, depth + 1);
}
