import { z } from 'zod';

/**
 * Every error code of the v1 API with its HTTP status (spec section 7). Callers branch on
 * the code; the status is fixed per code so servers and SDKs can never disagree.
 */
export const errorStatusByCode = {
  unauthorized: 401,
  invalid_api_key: 401,
  validation_error: 400,
  source_unreachable: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  nsfw_content_detected: 422,
  insufficient_credits: 402,
  rate_limited: 429,
  rate_limited_daily: 429,
  rate_limited_concurrent: 429,
  not_found: 404,
  method_not_allowed: 405,
  api_temporarily_disabled: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof errorStatusByCode;
export type ErrorStatus = (typeof errorStatusByCode)[ErrorCode];

export const errorCodes = Object.keys(errorStatusByCode) as [ErrorCode, ...ErrorCode[]];

export const ErrorCodeSchema = z.enum(errorCodes);

export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: ErrorCodeSchema.describe('Stable machine-readable code; branch on this.'),
      message: z.string().describe('Human-readable explanation; may change between releases.'),
      request_id: z.string().describe('Identifier of the request, for escalation.'),
    }),
  })
  .describe('Body of every non-2xx response.');

export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatusByCode, value);
}
