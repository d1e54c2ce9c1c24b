/** SQLSTATE classes and codes that mean the database cannot be reached now (not that the query was wrong). */
const PG_DOWN_CODES = new Set(['57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// node-postgres reports a dropped or never-made connection with these messages and no code.
const PG_DOWN_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/;

/**
 * True when a store call failed because its database server is down or unreachable (a Postgres restart):
 * the API answers 503 so clients retry, instead of a 500 that says the request itself broke something.
 */
export function isStoreUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (PG_DOWN_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.message === 'string' && PG_DOWN_MESSAGES.test(e.message)) return true;
  // Connecting to a host with several addresses fails with all of them (AggregateError).
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isStoreUnavailable);
}
