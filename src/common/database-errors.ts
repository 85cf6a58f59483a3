/**
 * Whether an error means the database cannot be reached or refuses work for now (as opposed to a
 * bad query): connection refused or dropped, pool timeouts, server shutting down or starting up,
 * too many connections. Such failures are the service's, temporary, and answered 503.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOENT']);
// SQLSTATE classes 08 (connection exception) and 57P0x (operator intervention), 53300 (too many
// connections), 57014 (a statement cancelled, as by statement_timeout).
const SQLSTATE = /^(08...|57P0[1-4]|53300|57014)$/;
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection is not established/i,
  /the database system is (starting up|shutting down)/i,
  /Query read timeout/i,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const candidate = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof candidate.code === 'string' ? candidate.code : '';
  if (NETWORK_CODES.has(code) || SQLSTATE.test(code)) return true;
  const message = typeof candidate.message === 'string' ? candidate.message : '';
  if (MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(candidate.errors) && candidate.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(candidate.driverError, depth + 1) || isDatabaseUnavailable(candidate.cause, depth + 1);
}
