import { createHmac, timingSafeEqual } from 'node:crypto';
import { formatWebhookSignature, webhookSignedPrefix, type WebhookPayload } from '@doppel/contract';
import { acceptSignedContent, readSignedContent, type RawBody, type VerifyWebhookOptions } from './verification';

/**
 * Verifies a webhook delivery with node:crypto and returns its typed payload. Throws
 * WebhookVerificationError, whose `reason` says what was wrong.
 *
 * @param rawBody the body exactly as received, before any JSON parsing
 * @param signatureHeader the `x-doppel-signature` header: a string, or an array of exactly one
 *   (as `req.headersDistinct` gives it); it must be exactly `t=<digits>,v1=<lower-case hex>`
 * @param apiKey the API key that created the swap (it is also the signing secret)
 */
export function verifyWebhook(
  rawBody: RawBody,
  signatureHeader: string | string[] | null | undefined,
  apiKey: string,
  options: VerifyWebhookOptions = {},
): WebhookPayload {
  const content = readSignedContent(rawBody, signatureHeader, apiKey);
  const expected = createHmac('sha256', apiKey).update(content.signedPayload).digest();
  const { signature } = content;
  // The length is public (a digest's is fixed), so only the bytes need the constant-time comparison.
  const matched = signature !== null && signature.length === expected.length && timingSafeEqual(signature, expected);
  return acceptSignedContent(content, matched, apiKey, options);
}

export interface TestSignatureHeaderParams {
  /** The exact body your test will send. */
  payload: RawBody;
  apiKey: string;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
}

/** A valid `x-doppel-signature` value for a body, for testing your own webhook receiver. */
export function generateTestSignatureHeader({ payload, apiKey, timestamp }: TestSignatureHeaderParams): string {
  const t = timestamp ?? Math.floor(Date.now() / 1000);
  const digest = createHmac('sha256', apiKey).update(webhookSignedPrefix(t)).update(payload).digest('hex');
  return formatWebhookSignature(t, digest);
}
