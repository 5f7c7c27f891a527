import type { oas30 } from 'openapi3-ts';
import { type ErrorCode, type ErrorEnvelope, type ErrorStatus, errorCodes, errorStatusByCode } from '../errors';
import type { RouteDocs } from '../route-docs';
import { everyResponseHeaders, extraHeadersByStatus } from './headers';
import { headerRefs, schemaRef } from './refs';

/** Meaning of each code (spec section 7), shown in every error response that can carry it. */
const errorMeaning = {
  unauthorized: 'The Authorization header is missing or not `Bearer <API_KEY>`.',
  invalid_api_key: 'The key matches no live key (unknown or revoked).',
  validation_error: 'The body, query or a path parameter fails validation.',
  source_unreachable: 'A media URL resolves to a non-public address, DNS fails, or it cannot be fetched.',
  unsupported_media_type:
    'Content-Type is not application/json, or fetched media is outside the allowed types or cannot be decoded (damaged or incomplete).',
  payload_too_large:
    'The body or fetched media exceeds its byte or size cap, or storing the inputs would take the user past their storage quota (space frees as tasks end and retention deletes them).',
  nsfw_content_detected: 'An input was flagged by the content analyser. Terminal: use other inputs.',
  insufficient_credits: 'The balance is below the cost. Top up, then retry with a fresh Idempotency-Key.',
  rate_limited: 'The per-minute budget is spent, or this client address has failed authentication too often this minute (then even a correct key is refused). Wait `Retry-After` seconds.',
  rate_limited_daily: 'The daily cap is spent. It resets at 00:00 UTC.',
  rate_limited_concurrent: 'Too many creates of this key are in flight. Wait for one to finish.',
  not_found: 'The task is missing, cleaned up, or owned by another key.',
  method_not_allowed: 'The endpoint does not support this method.',
  api_temporarily_disabled: 'The API is switched off, content checks are unfinished, or a request with the same Idempotency-Key is still in flight (`Retry-After: 5`). Honour `Retry-After`.',
  internal_error: 'A side effect failed; credits and the idempotency claim were rolled back. Safe to retry.',
} as const satisfies Record<ErrorCode, string>;

/**
 * Codes that only some operations can produce, each listed only where the route's metadata names
 * it. Every other code is listed wherever a route declares its status, so a status shared by
 * several codes (429, 400) is not over-promised.
 */
const ROUTE_SPECIFIC_CODES: readonly ErrorCode[] = ['rate_limited_concurrent', 'source_unreachable'];

const reasonPhrase = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
} as const satisfies Record<ErrorStatus, string>;

export const isErrorStatus = (status: number): status is ErrorStatus => Object.hasOwn(reasonPhrase, status);

export function errorExample(code: ErrorCode): ErrorEnvelope {
  return { error: { code, message: errorMeaning[code], request_id: 'req_Vb3kQ9xM2pLt7RwN' } };
}

/** Codes a route can answer with at an error status it declares. */
function errorCodesFor(route: string, docs: RouteDocs, status: number): ErrorCode[] {
  const codes = errorCodes.filter(
    (code) =>
      errorStatusByCode[code] === status &&
      (!ROUTE_SPECIFIC_CODES.includes(code) || (docs.routeSpecificErrors?.includes(code) ?? false)),
  );
  if (codes.length === 0) throw new Error(`${route} declares status ${status}, which no error code uses`);
  return codes;
}

export function errorResponse(route: string, docs: RouteDocs, status: ErrorStatus): oas30.ResponseObject {
  const codes = errorCodesFor(route, docs, status);
  const list = codes.map((code) => `- \`${code}\`: ${errorMeaning[code]}`).join('\n');
  return {
    description: `${reasonPhrase[status]}. \`error.code\` is one of:\n\n${list}`,
    headers: headerRefs([...everyResponseHeaders, ...(extraHeadersByStatus[status] ?? [])]),
    content: {
      'application/json': {
        schema: schemaRef('ErrorEnvelope'),
        examples: Object.fromEntries(codes.map((code) => [code, { summary: code, value: errorExample(code) }])),
      },
    },
  };
}
