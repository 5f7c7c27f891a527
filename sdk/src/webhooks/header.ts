import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_SIGNATURE_PATTERN, readWebhookSignature } from '@doppel/contract';
import { WebhookVerificationError } from './errors';

/**
 * Up to 15 digits every t is an exact integer in a double (below 2^53), and 10^15 s is some 30
 * million years away, so a longer t is never a real timestamp: rejecting it keeps Number() exact.
 */
const MAX_TIMESTAMP_DIGITS = 15;

export interface ParsedSignatureHeader {
  /** `t` exactly as written; the signed text starts with these digits, leading zeros included. */
  timestampText: string;
  /** The value of `t` in Unix seconds, for the tolerance check. */
  timestamp: number;
  /** The `v1` digest as bytes, or null when its hex has an odd length, which no digest has. */
  signature: Uint8Array<ArrayBuffer> | null;
}

function malformed(detail: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'malformed_header',
    `${WEBHOOK_SIGNATURE_HEADER} header ${detail}; expected exactly "t=<unix-seconds>,v1=<lower-case hex>"`,
  );
}

/**
 * Node's `req.headers` joins a repeated header into one string ("a, b"), which then fails the
 * pattern; `req.headersDistinct` gives an array with one element per time the header was sent.
 * So an array is read only when the header was sent exactly once.
 */
function singleHeaderValue(header: string | string[] | null | undefined): string {
  if (!Array.isArray(header)) return header ?? '';
  if (header.length > 1) throw malformed(`was sent ${header.length} times`);
  return header[0] ?? '';
}

/** Hex of odd length cannot be a digest; null makes the comparison fail, as the spec's would. */
function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (hex.length % 2 !== 0) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Reads the contract's `t=<digits>,v1=<lower-case hex>` and nothing else: anything else is `malformed_header`. */
export function parseSignatureHeader(header: string | string[] | null | undefined): ParsedSignatureHeader {
  const text = singleHeaderValue(header);
  if (text === '') throw malformed('is missing');
  const parts = readWebhookSignature(text);
  if (!parts) throw malformed(`does not match ${WEBHOOK_SIGNATURE_PATTERN.source}`);
  const { timestampText, hexDigest } = parts;
  if (timestampText.length > MAX_TIMESTAMP_DIGITS) throw malformed(`has a t of more than ${MAX_TIMESTAMP_DIGITS} digits`);
  return { timestampText, timestamp: Number(timestampText), signature: hexToBytes(hexDigest) };
}
