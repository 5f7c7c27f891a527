import { WEBHOOK_SIGNATURE_HEADER } from '@doppel/contract';
import { WebhookVerificationError } from './errors';

export interface ParsedSignatureHeader {
  /** Unix seconds at which the delivery was signed. */
  timestamp: number;
  /** Every `v1=` digest, decoded; one matching is enough (several allow for key rotation). */
  signatures: Uint8Array<ArrayBuffer>[];
}

function malformed(detail: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'malformed_header',
    `${WEBHOOK_SIGNATURE_HEADER} header ${detail}; expected "t=<unix-seconds>,v1=<hex>"`,
  );
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * Reads `t=<unix-seconds>,v1=<hex>[,v1=<hex>...]`. Schemes other than v1 are skipped so a later
 * scheme can be added beside v1 without breaking receivers.
 */
export function parseSignatureHeader(header: string | string[] | null | undefined): ParsedSignatureHeader {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text?.trim()) throw malformed('is missing');
  let timestamp: number | undefined;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const part of text.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 1) throw malformed(`has a part without "key=value" (${JSON.stringify(part.trim())})`);
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined) throw malformed('has more than one t');
      if (!/^\d+$/.test(value)) throw malformed('has a non-numeric t');
      timestamp = Number(value);
    } else if (key === 'v1') {
      const bytes = hexToBytes(value);
      if (!bytes) throw malformed('has a v1 that is not hex');
      signatures.push(bytes);
    }
  }
  if (timestamp === undefined) throw malformed('has no t');
  if (signatures.length === 0) throw malformed('has no v1 signature');
  return { timestamp, signatures };
}

export function formatSignatureHeader(timestamp: number, hexDigest: string): string {
  return `t=${timestamp},v1=${hexDigest}`;
}
