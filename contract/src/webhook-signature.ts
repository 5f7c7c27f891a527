/**
 * The `x-doppel-signature` value (spec section 6), defined once for the sender (server), the
 * receiver (SDK) and the OpenAPI document: `t=<unix seconds>,v1=<lower-case hex>`, where the hex
 * is HMAC-SHA256, keyed with the API key that created the swap, over `<t>.<raw body>`.
 */

/** The whole header value, exactly: no other order, no spaces, no other scheme, no second v1. */
export const WEBHOOK_SIGNATURE_PATTERN = /^t=\d+,v1=[a-f0-9]+$/;

export interface WebhookSignatureParts {
  /** `t` exactly as written: the signed text starts with these digits, leading zeros included. */
  readonly timestampText: string;
  readonly hexDigest: string;
}

export function formatWebhookSignature(timestamp: number | string, hexDigest: string): string {
  return `t=${timestamp},v1=${hexDigest}`;
}

/** The parts of a header value that matches the pattern, or null for any other text. */
export function readWebhookSignature(value: string): WebhookSignatureParts | null {
  if (!WEBHOOK_SIGNATURE_PATTERN.test(value)) return null;
  const [timestampText = '', hexDigest = ''] = value.slice('t='.length).split(',v1=');
  return { timestampText, hexDigest };
}

/** What precedes the raw body in the signed text: the timestamp as written, then a dot. */
export function webhookSignedPrefix(timestamp: number | string): string {
  return `${timestamp}.`;
}
