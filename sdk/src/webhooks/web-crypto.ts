import type { WebhookPayload } from '@doppel/contract';
import { acceptSignedContent, readSignedContent, type RawBody, type VerifyWebhookOptions } from './verification';

/**
 * `verifyWebhook` on the Web Crypto API (`crypto.subtle`), for runtimes without node:crypto:
 * Cloudflare Workers, Vercel Edge, Deno, Bun, browsers' service workers. Same checks, same errors.
 */
export async function verifyWebhookAsync(
  rawBody: RawBody,
  signatureHeader: string | string[] | null | undefined,
  apiKey: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookPayload> {
  const content = readSignedContent(rawBody, signatureHeader, apiKey);
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(apiKey),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  // subtle.verify compares in constant time, so no hand-written comparison is needed.
  const { signature } = content;
  const matched = signature !== null && (await crypto.subtle.verify('HMAC', key, signature, content.signedPayload));
  return acceptSignedContent(content, matched, apiKey, options);
}
