import { DatabaseUnavailableError } from '@doppel/core/db/unavailable';

/** A failure the operator can act on; the CLI prints its message as one line on stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The command line itself is wrong (unknown option, missing or malformed value): exit code 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
    this.name = 'UsageError';
  }
}

// Errors that mean the database could not be reached or logged into, by Node or PostgreSQL code.
const connectionCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', '28000', '28P01', '3D000']);

/** One line for stderr. Connection failures from pg can be an AggregateError with no message of its own. */
export function failureLine(error: unknown): string {
  if (error instanceof CliError) return error.message;
  if (error instanceof DatabaseUnavailableError) return failureLine(error.cause);
  const inner = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  const message = inner instanceof Error && inner.message ? inner.message : String(inner);
  const code = (inner as { code?: unknown } | null)?.code;
  const line = message.replace(/\s*\n\s*/g, ' ');
  return typeof code === 'string' && connectionCodes.has(code) ? `cannot reach the database: ${line}` : line;
}
