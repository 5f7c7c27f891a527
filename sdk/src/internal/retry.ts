import type { ErrorCode } from '@doppel/contract';

export interface RetryDelayOptions {
  /** First backoff delay; doubles on each further attempt. Default 500 ms. */
  initialMs?: number;
  /** Upper bound of the exponential backoff. Default 8 s. */
  maxMs?: number;
  /**
   * Longest server-requested wait (`Retry-After`, `x-ratelimit-reset`) the SDK sleeps through.
   * A longer one is not retried: the error reaches the caller, who can schedule the work later.
   * Default 60 s.
   */
  maxServerDelayMs?: number;
}

export const defaultRetryDelay: Required<RetryDelayOptions> = {
  initialMs: 500,
  maxMs: 8_000,
  maxServerDelayMs: 60_000,
};

/**
 * Whether a response is worth another attempt. 429 is, except `rate_limited_daily`: that cap
 * only resets at 00:00 UTC, so retrying within one call would just spend more of the budget.
 * 4xx validation-family errors never are: the same request fails the same way.
 */
export function isRetryableStatus(status: number, code: ErrorCode | null): boolean {
  if (status === 429) return code !== 'rate_limited_daily';
  return status === 408 || status >= 500;
}

/**
 * The wait the server asked for, in ms, or null when it did not say. `Retry-After` (seconds or
 * an HTTP date) wins over `x-ratelimit-reset` (epoch seconds at which the window frees up).
 */
export function serverRequestedDelayMs(headers: Headers, nowMs: number): number | null {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - nowMs);
  }
  const reset = headers.get('x-ratelimit-reset')?.trim();
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - nowMs);
  return null;
}

/** Exponential backoff with up to 25 % jitter, so many clients do not retry in lockstep. */
export function backoffDelayMs(retryIndex: number, options: Required<RetryDelayOptions>): number {
  const base = Math.min(options.initialMs * 2 ** retryIndex, options.maxMs);
  return Math.round(base * (1 - Math.random() * 0.25));
}
