import { WEBHOOK_TOLERANCE_SECONDS, WebhookPayloadSchema, webhookSignedPrefix, type WebhookPayload } from '@doppel/contract';
import { DoppelError } from '../core/errors';
import { WebhookVerificationError } from './errors';
import { parseSignatureHeader } from './header';

export interface VerifyWebhookOptions {
  /** Largest accepted distance between the signature's `t` and now, either way. Default 300 s. */
  toleranceSeconds?: number;
  /** The receiver's current time in Unix seconds; defaults to the system clock. */
  now?: number;
}

/** The request body exactly as received, before any parsing. */
export type RawBody = string | Uint8Array;

/** Everything the HMAC check needs, the parts both crypto back-ends share. */
export interface SignedContent {
  timestamp: number;
  /** The header's v1 digest; null when it cannot be one (odd-length hex), so nothing matches. */
  signature: Uint8Array<ArrayBuffer> | null;
  body: Uint8Array;
  /** `<t as written>.<raw body>` as bytes: what the sender signed. */
  signedPayload: Uint8Array<ArrayBuffer>;
}

const utf8 = new TextEncoder();

function rawBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return utf8.encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  const got = rawBody === null ? 'null' : typeof rawBody === 'object' ? 'a parsed object' : typeof rawBody;
  throw new WebhookVerificationError(
    'body_not_raw',
    `Webhook verification needs the raw request body (string, Buffer or Uint8Array) exactly as received, but got ${got}. ` +
      'The signature covers the exact bytes, and re-serialised JSON rarely matches them: read the body raw ' +
      "(Express: express.raw({ type: 'application/json' }); Fastify: a content-type parser with parseAs: 'buffer').",
  );
}

export function readSignedContent(
  rawBody: unknown,
  header: string | string[] | null | undefined,
  apiKey: string,
): SignedContent {
  const body = rawBytes(rawBody);
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new DoppelError('Webhook verification needs the API key that created the swap');
  }
  const { timestampText, timestamp, signature } = parseSignatureHeader(header);
  // The digits as written, not the parsed number: `t=0123` signs "0123.", which Number() would lose.
  const prefix = utf8.encode(webhookSignedPrefix(timestampText));
  const signedPayload = new Uint8Array(prefix.length + body.length);
  signedPayload.set(prefix);
  signedPayload.set(body, prefix.length);
  return { timestamp, signature, body, signedPayload };
}

/** The checks after the HMAC comparison: signature outcome, clock distance, payload shape. */
export function acceptSignedContent(
  content: SignedContent,
  signatureMatched: boolean,
  apiKey: string,
  options: VerifyWebhookOptions,
): WebhookPayload {
  if (!signatureMatched) {
    const hint =
      apiKey.trim() !== apiKey ? ' The API key has leading or trailing whitespace; it is most likely the cause.' : '';
    throw new WebhookVerificationError(
      'no_matching_signature',
      `The v1 signature does not match the body for this API key. Check that the key is the one that created the swap and that the body is unmodified.${hint}`,
    );
  }
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (now - content.timestamp > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `Signature timestamp is ${now - content.timestamp} s old (tolerance ${tolerance} s): possibly a replay`,
    );
  }
  if (content.timestamp - now > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_in_future',
      `Signature timestamp is ${content.timestamp - now} s ahead of this clock (tolerance ${tolerance} s): check the receiver's clock`,
    );
  }
  return parsePayload(content.body);
}

function parsePayload(body: Uint8Array): WebhookPayload {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'Webhook body is not valid UTF-8 JSON');
  }
  const parsed = WebhookPayloadSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    throw new WebhookVerificationError('invalid_payload', `Webhook body is not a v1 webhook payload: ${issues.join('; ')}`);
  }
  return parsed.data;
}
