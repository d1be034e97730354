// Failures that say "the database cannot be reached right now", as opposed to "this query is
// wrong": the first are a 503 that a client may retry, the second a bug (500) or bad input (4xx).

// SQLSTATE class 08 (connection exception), the server shutting down or crashed (57P01,
// 57P02), starting up or in recovery (57P03), and out of connection slots (53300).
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// pg, pg-pool and PGlite say it in words only.
const MESSAGES = [
  /^Connection terminated/, // "... unexpectedly", "... due to connection timeout"
  /is not queryable$/, // a client after a connection error, or closed
  /^timeout exceeded when trying to connect$/, // the pool's connectionTimeoutMillis
  /^Cannot use a pool after calling end on the pool$/, // during shutdown
  /^PGlite is closed$/,
];

/** True when `err`, or an error it wraps (Drizzle puts the driver's error in `cause`), is a lost or refused connection. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0 && seen.size < 10) {
    const current = queue.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && (SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
    if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
    queue.push(cause);
    // net's connection attempts to several addresses fail with an AggregateError.
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}
