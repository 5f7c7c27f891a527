import { createHmac } from 'node:crypto';

/**
 * The `x-doppel-signature` value for one attempt (spec section 6): HMAC-SHA256 keyed with the
 * API key over `<t>.<raw body>`, lower-case hex. Signed per attempt, so a retry hours later
 * still carries a timestamp inside the receiver's 300-second window.
 */
export function signWebhook(rawBody: string, apiKey: string, timestampSeconds: number): string {
  const digest = createHmac('sha256', apiKey).update(`${timestampSeconds}.${rawBody}`).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}
