import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateTestSignatureHeader,
  verifyWebhook,
  verifyWebhookAsync,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookPayload,
  type WebhookVerificationFailure,
} from '../src';
import { swap } from './helpers/fixtures';

const apiKey = 'dk_live_webhook_key';
const now = 1_750_000_000;
const payload: WebhookPayload = {
  event: 'swap.completed',
  ...swap({ status: 'done', progress: 100, result_url: 'https://cdn.example.com/r.jpg' }),
};
const body = JSON.stringify(payload);

/** The signature exactly as spec section 6 defines it, computed independently of the SDK. */
function specSignature(t: number, rawBody: string, key = apiKey): string {
  return createHmac('sha256', key).update(`${t}.${rawBody}`).digest('hex');
}

type Verify = (
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  key: string,
  options?: VerifyWebhookOptions,
) => Promise<WebhookPayload>;

async function failure(verify: Verify, ...args: Parameters<Verify>): Promise<WebhookVerificationError> {
  try {
    await verify(...args);
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error('verification unexpectedly succeeded');
}

async function reason(verify: Verify, ...args: Parameters<Verify>): Promise<WebhookVerificationFailure> {
  return (await failure(verify, ...args)).reason;
}

it('verifyWebhook answers synchronously', () => {
  const header = generateTestSignatureHeader({ payload: body, apiKey, timestamp: now });

  expect(verifyWebhook(body, header, apiKey, { now })).toEqual(payload);
  expect(() => verifyWebhook(body, header, 'wrong', { now })).toThrow(WebhookVerificationError);
});

describe.each([
  // The synchronous one is wrapped so both are awaited alike; it still throws synchronously.
  ['verifyWebhook (node:crypto)', (async (...args) => verifyWebhook(...args)) satisfies Verify],
  ['verifyWebhookAsync (Web Crypto)', verifyWebhookAsync satisfies Verify],
])('%s', (_name, verify) => {
  const header = `t=${now},v1=${specSignature(now, body)}`;

  it('returns the typed payload of a correctly signed delivery', async () => {
    await expect(verify(body, header, apiKey, { now })).resolves.toEqual(payload);
  });

  it('accepts the raw body as bytes (Buffer or Uint8Array)', async () => {
    await expect(verify(Buffer.from(body), header, apiKey, { now })).resolves.toEqual(payload);
    await expect(verify(new TextEncoder().encode(body), header, apiKey, { now })).resolves.toEqual(payload);
  });

  it('verifies a header from generateTestSignatureHeader', async () => {
    const generated = generateTestSignatureHeader({ payload: body, apiKey, timestamp: now });

    expect(generated).toBe(header);
    await expect(verify(body, generateTestSignatureHeader({ payload: body, apiKey }), apiKey)).resolves.toEqual(payload);
  });

  it('rejects a tampered body', async () => {
    const tampered = body.replace('"done"', '"failed"');

    expect(await reason(verify, tampered, header, apiKey, { now })).toBe('no_matching_signature');
  });

  it('rejects a signature made with another key', async () => {
    expect(await reason(verify, body, header, 'dk_live_other_key', { now })).toBe('no_matching_signature');
  });

  it('points at surrounding whitespace in the key when nothing matches', async () => {
    const error = await failure(verify, body, header, ` ${apiKey}\n`, { now });

    expect(error.reason).toBe('no_matching_signature');
    expect(error.message).toMatch(/whitespace/);
  });

  it('accepts a timestamp exactly at the 300 s tolerance and rejects one beyond it', async () => {
    const old = now - 300;
    await expect(verify(body, `t=${old},v1=${specSignature(old, body)}`, apiKey, { now })).resolves.toEqual(payload);

    const stale = now - 301;
    expect(await reason(verify, body, `t=${stale},v1=${specSignature(stale, body)}`, apiKey, { now })).toBe(
      'timestamp_too_old',
    );
  });

  it('rejects a timestamp too far in the future', async () => {
    const future = now + 301;

    expect(await reason(verify, body, `t=${future},v1=${specSignature(future, body)}`, apiKey, { now })).toBe(
      'timestamp_in_future',
    );
  });

  it('applies a custom tolerance', async () => {
    const t = now - 60;

    expect(
      await reason(verify, body, `t=${t},v1=${specSignature(t, body)}`, apiKey, { now, toleranceSeconds: 30 }),
    ).toBe('timestamp_too_old');
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
    ['garbage', 'sha256=abcdef'],
    ['without t', `v1=${specSignature(now, body)}`],
    ['without v1', `t=${now}`],
    ['with a non-numeric t', `t=yesterday,v1=${specSignature(now, body)}`],
    ['with a non-hex v1', `t=${now},v1=not-hex`],
    ['with two t', `t=${now},t=${now},v1=${specSignature(now, body)}`],
  ])('rejects a header %s as malformed', async (_case, badHeader) => {
    expect(await reason(verify, body, badHeader, apiKey, { now })).toBe('malformed_header');
  });

  it('accepts any one matching v1 among several, and ignores unknown schemes', async () => {
    const several = `t=${now},v1=${specSignature(now, body, 'old_key')},v0=abc,v1=${specSignature(now, body)}`;

    await expect(verify(body, several, apiKey, { now })).resolves.toEqual(payload);
  });

  it('explains that a parsed object is not the raw body', async () => {
    const error = await failure(verify, payload as unknown as string, header, apiKey, { now });

    expect(error.reason).toBe('body_not_raw');
    expect(error.message).toMatch(/raw request body/);
  });

  it('rejects a correctly signed body that is not a webhook payload', async () => {
    const notPayload = JSON.stringify({ event: 'swap.deleted', id: 'swp_1' });
    const signed = `t=${now},v1=${specSignature(now, notPayload)}`;

    expect(await reason(verify, notPayload, signed, apiKey, { now })).toBe('invalid_payload');
    expect(await reason(verify, 'not json', `t=${now},v1=${specSignature(now, 'not json')}`, apiKey, { now })).toBe(
      'invalid_payload',
    );
  });
});
