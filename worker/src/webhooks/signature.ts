import { formatWebhookSignature, webhookSignedPrefix } from '@doppel/contract';
import { createHmac } from 'node:crypto';

/**
 * The `x-doppel-signature` value for one attempt, in the contract's format. Signed per attempt,
 * so a retry hours later still carries a timestamp inside the receiver's 300-second window.
 */
export function signWebhook(rawBody: string, apiKey: string, timestampSeconds: number): string {
  const digest = createHmac('sha256', apiKey).update(webhookSignedPrefix(timestampSeconds)).update(rawBody).digest('hex');
  return formatWebhookSignature(timestampSeconds, digest);
}
