/**
 * SQLSTATEs that say the server is going away, refusing sessions, or gave up waiting (statement or
 * lock timeout), rather than that the statement was wrong. Class 08 (connection exception) is
 * matched by prefix.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '57014', // query_canceled (statement_timeout)
  '55P03', // lock_not_available (lock_timeout)
]);

/** Socket errors on an established connection; any error of a `connect` call also counts. */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Errors that pg, pg-pool and PGlite raise without a code. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // pg: the server closed the socket, the connect timeout hit, or a frozen server's connection was dropped
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection free within the acquire timeout
  /^Client has encountered a connection error and is not queryable$/,
  /^PGlite is clos(ed|ing)$/,
];

/**
 * True when an error (or one it wraps: TypeORM's `driverError`, a `cause`, an AggregateError's
 * members) means the database could not be reached or did not answer, as opposed to a bug or a
 * refused statement.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const candidate = error as {
    code?: unknown;
    syscall?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  const code = typeof candidate.code === 'string' ? candidate.code : '';
  if (UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (UNAVAILABLE_SOCKET_CODES.has(code) || (code !== '' && candidate.syscall === 'connect')) return true;
  const message = typeof candidate.message === 'string' ? candidate.message : '';
  if (code === '' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  const nested = [candidate.driverError, candidate.cause, ...(Array.isArray(candidate.errors) ? (candidate.errors as unknown[]) : [])];
  return nested.some((inner) => inner !== error && isDatabaseUnavailable(inner, depth + 1));
}
