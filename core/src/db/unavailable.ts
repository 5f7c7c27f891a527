/**
 * Errors that mean "the database cannot be reached right now", as opposed to a query that is
 * wrong: no connection could be made (refused, timed out, the server starting or shutting down,
 * the database gone or closed to connections), or a connection was cut mid-query. Callers are
 * told to retry (503); the pool reconnects by itself when the database is back.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
    // node-postgres reports a connection lost under (or between) queries by message only.
    if (/^Connection terminated|^Client (has encountered a connection error|was closed) and is not queryable/.test(e.message)) return true;
  }
  return false;
}
