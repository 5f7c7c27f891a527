import { WEBHOOK_ATTEMPT_HEADER, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@doppel/contract';
import { GuardedFetchError } from '@doppel/core/media/fetch-failure';
import type { FetchGuard } from '@doppel/core/media/fetch-guard';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, guardedRequest } from '@doppel/core/media/guarded-fetch';
import { signWebhook } from './signature';

export const WEBHOOK_USER_AGENT = 'Doppel-Webhooks/1';
/** Receivers only need to say 2xx; anything bigger than this is cut off and counts as a failure. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface AttemptRequest {
  readonly url: string;
  readonly body: string;
  readonly eventId: string;
  readonly attempt: number;
  /** The plaintext API key that created the swap: the signing secret. */
  readonly apiKey: string;
}

export interface AttemptOutcome {
  readonly delivered: boolean;
  readonly startedAt: Date;
  /** Null when no HTTP response arrived. */
  readonly statusCode: number | null;
  readonly latencyMs: number;
  /** Why the attempt failed, for operators; null for a delivery and for a plain non-2xx. */
  readonly error: string | null;
}

/**
 * One POST of an event to its receiver through the fetch guard, which vets the URL again now
 * (the host may have been re-pointed since the swap was created) and connects to the vetted
 * address only. Never throws: every way of failing becomes an outcome to record.
 */
export async function sendAttempt(
  request: AttemptRequest,
  options: { guard: FetchGuard; timeoutMs?: number },
): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const response = await guardedRequest(request.url, {
      guard: options.guard,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(request.body, request.apiKey, Math.floor(Date.now() / 1000)),
        [WEBHOOK_EVENT_ID_HEADER]: request.eventId,
        [WEBHOOK_ATTEMPT_HEADER]: String(request.attempt),
      },
      body: request.body,
      // A redirect could point a signed event anywhere; the receiver's URL is the only target.
      followRedirects: false,
      timeoutMs: options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
    });
    const delivered = response.status >= 200 && response.status <= 299;
    const redirected = response.status >= 300 && response.status <= 399;
    return {
      delivered,
      startedAt,
      statusCode: response.status,
      latencyMs: latency(),
      error: redirected ? `redirect not followed (location: ${response.headers.location ?? 'none'})` : null,
    };
  } catch (error) {
    const reason =
      error instanceof GuardedFetchError
        ? `${error.failure}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error);
    return { delivered: false, startedAt, statusCode: null, latencyMs: latency(), error: reason };
  }
}
