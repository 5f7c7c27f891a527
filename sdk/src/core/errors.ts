import { errorStatusByCode, isErrorCode, type ErrorCode } from '@doppel/contract';
import { serverRequestedDelayMs } from '../internal/retry';

/** Base of every error the SDK throws on purpose. */
export class DoppelError extends Error {
  override name = 'DoppelError';
}

export interface APIErrorInit {
  status: number;
  code: ErrorCode | null;
  message: string;
  requestId: string | null;
  headers: Headers;
  body: unknown;
}

/** The API answered with a non-2xx status. Branch on `code`, the stable part of the contract. */
export class APIError extends DoppelError {
  override name = 'APIError';
  readonly status: number;
  /** The envelope's `error.code`; null when the body was not a v1 error envelope (e.g. a proxy page). */
  readonly code: ErrorCode | null;
  /** The envelope's `error.request_id`, to quote when escalating. */
  readonly requestId: string | null;
  readonly headers: Headers;
  /** The response body as received. */
  readonly body: unknown;
  /** Seconds the server asked the caller to wait (`Retry-After` or `x-ratelimit-reset`), if it did. */
  readonly retryAfterSeconds: number | null;

  constructor(init: APIErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.body = init.body;
    const delayMs = serverRequestedDelayMs(init.headers, Date.now());
    this.retryAfterSeconds = delayMs === null ? null : Math.ceil(delayMs / 1000);
  }
}

/** `unauthorized`, `invalid_api_key`: send a live key as `Authorization: Bearer <key>`. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** The request or its media cannot be accepted as sent; retrying unchanged fails again. */
export class ValidationError extends APIError {
  override name = 'ValidationError';
}
/** The task does not exist, was cleaned up, or belongs to another key. */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** Balance below the swap's cost. Top up, then create again with a fresh idempotency key. */
export class InsufficientCreditsError extends APIError {
  override name = 'InsufficientCreditsError';
}
/** An input was flagged by the content analyser. Terminal: use other media. */
export class ContentRejectedError extends APIError {
  override name = 'ContentRejectedError';
}
/** A per-minute, daily or concurrency limit was hit; see `code` and `retryAfterSeconds`. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
/** The API is switched off or content checks are still running; come back after `retryAfterSeconds`. */
export class UnavailableError extends APIError {
  override name = 'UnavailableError';
}
/** The server failed; credits and idempotency claims were rolled back, so retrying is safe. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** No HTTP response arrived: DNS, TCP, TLS or the connection dropped. */
export class APIConnectionError extends DoppelError {
  override name = 'APIConnectionError';
  constructor(message = 'Connection to the Doppel API failed', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No complete response within `timeoutMs`. */
export class APITimeoutError extends APIConnectionError {
  override name = 'APITimeoutError';
  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms`);
  }
}

/** `waitFor` gave up before the task reached a terminal status; the task itself keeps running. */
export class WaitTimeoutError<T = unknown> extends DoppelError {
  override name = 'WaitTimeoutError';
  /** The last snapshot seen before giving up. */
  readonly lastSnapshot: T;
  constructor(id: string, timeoutMs: number, lastSnapshot: T) {
    super(`Task ${id} was not finished after ${timeoutMs} ms`);
    this.lastSnapshot = lastSnapshot;
  }
}

type APIErrorClass = new (init: APIErrorInit) => APIError;

/**
 * The class of every error code in the contract. `satisfies Record<ErrorCode, ...>` makes a code
 * added to the contract a compile error here until it is given a class.
 */
export const errorClassByCode = {
  unauthorized: AuthenticationError,
  invalid_api_key: AuthenticationError,
  validation_error: ValidationError,
  source_unreachable: ValidationError,
  unsupported_media_type: ValidationError,
  payload_too_large: ValidationError,
  nsfw_content_detected: ContentRejectedError,
  insufficient_credits: InsufficientCreditsError,
  rate_limited: RateLimitError,
  rate_limited_daily: RateLimitError,
  rate_limited_concurrent: RateLimitError,
  not_found: NotFoundError,
  // Only an SDK bug can cause it, so it has no class of its own.
  method_not_allowed: APIError,
  api_temporarily_disabled: UnavailableError,
  internal_error: InternalServerError,
} as const satisfies Record<ErrorCode, APIErrorClass>;

/**
 * The class for a response without a recognisable code: the class shared by every code with that
 * status (so a bare 429 is still a RateLimitError), any other 5xx as InternalServerError.
 */
function classForStatus(status: number): APIErrorClass {
  const classes = new Set(
    (Object.keys(errorStatusByCode) as ErrorCode[])
      .filter((code) => errorStatusByCode[code] === status)
      .map((code) => errorClassByCode[code]),
  );
  const [only] = classes;
  if (classes.size === 1 && only) return only;
  return status >= 500 ? InternalServerError : APIError;
}

interface LooseEnvelope {
  error: { code?: unknown; message?: unknown; request_id?: unknown };
}

function isLooseEnvelope(body: unknown): body is LooseEnvelope {
  // A swap's own `error` field is null or a string, so only an object counts.
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  return typeof error === 'object' && error !== null;
}

/** Reads the error code of a response body, or null when there is none the contract knows. */
export function errorCodeOf(body: unknown): ErrorCode | null {
  return isLooseEnvelope(body) && isErrorCode(body.error.code) ? body.error.code : null;
}

/**
 * Builds the typed error for a non-2xx response. Read leniently: a proxy's HTML page or a code
 * newer than this SDK still gives a useful error instead of a parse failure.
 */
export function apiErrorFromResponse(status: number, body: unknown, headers: Headers): APIError {
  const envelope = isLooseEnvelope(body) ? body.error : undefined;
  const code = errorCodeOf(body);
  const ErrorClass = code ? errorClassByCode[code] : classForStatus(status);
  const message =
    typeof envelope?.message === 'string'
      ? envelope.message
      : `HTTP ${status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`;
  const requestId = typeof envelope?.request_id === 'string' ? envelope.request_id : null;
  return new ErrorClass({ status, code, message, requestId, headers, body });
}
