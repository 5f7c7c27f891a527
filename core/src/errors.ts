import { errorStatusByCode, type ErrorCode, type ErrorEnvelope } from '@doppel/contract';

/**
 * The one error type of the server: a stable code from the contract, a message safe to show
 * the caller, and optional response headers (Retry-After and friends). Anything thrown that is
 * not an ApiError is answered as internal_error without its message.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return errorStatusByCode[this.code];
  }

  toEnvelope(requestId: string): ErrorEnvelope {
    return { error: { code: this.code, message: this.message, request_id: requestId } };
  }
}

export const notFound = () => new ApiError('not_found', 'No task with this id exists for this API key.');
