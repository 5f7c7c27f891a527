import { httpsUrlProblem, mimeTypeOf } from '@doppel/contract';
import { ApiError } from '@doppel/core/errors';
import type { IntakeShare } from '../intake/intake-budget';
import { GuardedFetchError } from '@doppel/core/media/fetch-failure';
import type { FetchGuard } from '@doppel/core/media/fetch-guard';
import { DEFAULT_MEDIA_TIMEOUT_MS, MAX_REDIRECTS, guardedFetch } from '@doppel/core/media/guarded-fetch';
import { sniffMedia, type MediaKind } from '@doppel/core/media/sniff';
import { vetTarget } from '@doppel/core/media/vet-target';

/**
 * Swap and face-detect inputs: fetched through the guard, capped, type-sniffed. Every failure
 * becomes an ApiError with the contract's code and a message that names the request field but
 * never an address the URL resolved to.
 */

const MIB = 1024 * 1024;

export interface FetchMediaOptions {
  readonly url: string;
  readonly role: 'source' | 'target';
  /** The request field the URL came from, for messages ("face_swaps[1].source_url"); `<role>_url` by default. */
  readonly field?: string;
  readonly allowed: readonly MediaKind[];
  readonly maxBytes: number;
  readonly guard: FetchGuard;
  readonly timeoutMs?: number;
  readonly connectTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The create's share of the process's intake budget; the bytes stay counted until it is released. */
  readonly share?: IntakeShare;
}

/** Seconds a caller is asked to wait when the intake budget is used up: creates finish in seconds. */
const OVER_BUDGET_RETRY_AFTER_SECONDS = 5;

export interface FetchedMedia {
  readonly bytes: Buffer;
  readonly kind: MediaKind;
  readonly mimeType: string;
  /** Where the bytes came from after redirects. */
  readonly finalUrl: string;
}

export async function fetchMedia(options: FetchMediaOptions): Promise<FetchedMedia> {
  const field = options.field ?? `${options.role}_url`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_MEDIA_TIMEOUT_MS;
  let response;
  try {
    response = await guardedFetch(options.url, {
      guard: options.guard,
      maxBytes: options.maxBytes,
      timeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      signal: options.signal,
      admit: options.share?.admit,
    });
  } catch (error) {
    throw toApiError(error, field, options.url, { maxBytes: options.maxBytes, timeoutMs });
  }

  const kind = sniffMedia(response.body);
  if (!kind || !options.allowed.includes(kind)) {
    const accepted = options.allowed.map(mimeTypeOf).join(', ');
    const found = kind ? `is ${mimeTypeOf(kind)}` : 'is not a recognised media file';
    throw new ApiError('unsupported_media_type', `${field} ${found}; accepted here: ${accepted}.`);
  }
  return { bytes: response.body, kind, mimeType: mimeTypeOf(kind), finalUrl: response.url };
}

/**
 * The same checks as a fetch, without fetching: for URLs used later, such as webhook_url at
 * create time. Delivery must still go through guardedRequest, which vets again.
 */
export async function vetPublicUrl(options: {
  readonly url: string;
  readonly field: string;
  readonly guard: FetchGuard;
  readonly signal?: AbortSignal;
}): Promise<void> {
  try {
    await vetTarget(options.url, options.guard, options.signal);
  } catch (error) {
    throw toApiError(error, options.field, options.url, { maxBytes: 0, timeoutMs: 0 });
  }
}

function toApiError(error: unknown, field: string, url: string, limits: { maxBytes: number; timeoutMs: number }): unknown {
  if (!(error instanceof GuardedFetchError)) return error;
  const options = { cause: error };
  switch (error.failure) {
    case 'invalid_url':
      return new ApiError('validation_error', `${field} ${httpsUrlProblem(url) ?? 'is not a valid URL'}.`, options);
    case 'too_large':
      return new ApiError('payload_too_large', `${field} is larger than the ${formatBytes(limits.maxBytes)} limit for this input.`, options);
    case 'over_budget':
      return new ApiError('api_temporarily_disabled', 'The service is taking in too much media at once; retry shortly.', {
        ...options,
        headers: { 'retry-after': String(OVER_BUDGET_RETRY_AFTER_SECONDS) },
      });
    default:
      return new ApiError('source_unreachable', `${field} could not be fetched: ${unreachableReason(error, limits.timeoutMs)}.`, options);
  }
}

function unreachableReason(error: GuardedFetchError, timeoutMs: number): string {
  switch (error.failure) {
    case 'refused_name':
      return 'its host is not a public internet host';
    case 'refused_address':
      return 'its host does not resolve to a public address';
    case 'dns_failed':
      return 'its host name could not be resolved';
    case 'connect_failed':
      return 'no secure connection to its host could be made';
    case 'timeout':
      return `the download did not finish within ${timeoutMs / 1000} s`;
    case 'redirect_refused':
      return 'it redirects to something other than a public HTTPS URL';
    case 'too_many_redirects':
      return `it redirects more than ${MAX_REDIRECTS} times`;
    case 'http_status':
      return `its server answered HTTP ${error.status}`;
    default:
      return 'the connection broke before the file was received';
  }
}

const formatBytes = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`);
