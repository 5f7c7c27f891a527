import { createHmac } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  generateTestSignatureHeader,
  verifyWebhook,
  verifyWebhookAsync,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookPayload,
  type WebhookVerificationFailure,
  WEBHOOK_SIGNATURE_HEADER,
} from '../src';
import { swap } from './helpers/fixtures';

const apiKey = 'dk_live_webhook_key';
const now = 1_750_000_000;
const payload: WebhookPayload = {
  event: 'swap.completed',
  ...swap({ status: 'done', progress: 100, result_url: 'https://cdn.example.com/r.jpg' }),
};
const body = JSON.stringify(payload);

/**
 * The signature exactly as spec section 6 defines it, computed independently of the SDK. `t` is
 * signed as written, so a string keeps leading zeros.
 */
function specSignature(t: number | string, rawBody: string, key = apiKey): string {
  return createHmac('sha256', key).update(`${t}.${rawBody}`).digest('hex');
}

/** A correctly signed header for `body`, with `t` written exactly so. */
function signedHeader(t: number | string): string {
  return `t=${t},v1=${specSignature(t, body)}`;
}

type Verify = (
  rawBody: string | Uint8Array,
  header: string | string[] | null | undefined,
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

  // Where a digest is given it is the right one, so the format alone decides.
  it.each([
    ['that is missing', undefined],
    ['that is null', null],
    ['that is empty', ''],
    ['of another scheme altogether', `sha256=${specSignature(now, body)}`],
    ['without t', `v1=${specSignature(now, body)}`],
    ['without v1', `t=${now}`],
    ['with a non-numeric t', `t=yesterday,v1=${specSignature(now, body)}`],
    ['with a plus sign before t', `t=+${now},v1=${specSignature(`+${now}`, body)}`],
    ['with a fractional t', `t=${now}.5,v1=${specSignature(`${now}.5`, body)}`],
    ['with a non-hex v1', `t=${now},v1=not-hex`],
    ['with two t', `t=${now},t=${now},v1=${specSignature(now, body)}`],
    ['with its parts in reverse order', `v1=${specSignature(now, body)},t=${now}`],
    ['with a space after the comma', `t=${now}, v1=${specSignature(now, body)}`],
    ['with spaces around a key and a value', `t = ${now},v1=${specSignature(now, body)}`],
    ['with leading whitespace', ` t=${now},v1=${specSignature(now, body)}`],
    ['with trailing whitespace', `t=${now},v1=${specSignature(now, body)} `],
    ['with a trailing newline', `t=${now},v1=${specSignature(now, body)}\n`],
    ['with upper-case hex', `t=${now},v1=${specSignature(now, body).toUpperCase()}`],
    ['with an unknown scheme after v1', `t=${now},v1=${specSignature(now, body)},v0=abc`],
    ['with an unknown scheme before v1', `t=${now},v0=abc,v1=${specSignature(now, body)}`],
    ['with two v1, one of them matching', `t=${now},v1=${specSignature(now, body, 'old_key')},v1=${specSignature(now, body)}`],
    ['sent twice, as Node joins it into one value', `${signedHeader(now)}, ${signedHeader(now)}`],
    ['given as an empty array', []],
    ['given as an array of two values', [signedHeader(now), signedHeader(now)]],
    ['with a t of 16 digits, though leading zeros keep its value now', signedHeader(`000000${now}`)],
    ['with a t of hundreds of digits', signedHeader('9'.repeat(400))],
  ])('rejects a header %s as malformed_header', async (_case, badHeader) => {
    expect(await reason(verify, body, badHeader, apiKey, { now })).toBe('malformed_header');
  });

  it('accepts the header as an array of exactly one value, as req.headersDistinct gives it', async () => {
    await expect(verify(body, [header], apiKey, { now })).resolves.toEqual(payload);
  });

  it('checks the signature over t as written, leading zeros included', async () => {
    await expect(verify(body, signedHeader(`0${now}`), apiKey, { now })).resolves.toEqual(payload);

    const signedAsNumber = `t=0${now},v1=${specSignature(now, body)}`;
    expect(await reason(verify, body, signedAsNumber, apiKey, { now })).toBe('no_matching_signature');
  });

  it('accepts a t of 15 digits and applies the tolerance to its value', async () => {
    await expect(verify(body, signedHeader(`00000${now}`), apiKey, { now })).resolves.toEqual(payload);

    const stale = `0000${now - 301}`;
    expect(await reason(verify, body, signedHeader(stale), apiKey, { now })).toBe('timestamp_too_old');
  });

  it.each([
    ['an odd number of hex digits', 'abc'],
    ['fewer hex digits than a digest', specSignature(now, body).slice(0, 62)],
    ['more hex digits than a digest', `${specSignature(now, body)}00`],
  ])('rejects a well-formed v1 with %s as no_matching_signature', async (_case, hex) => {
    expect(await reason(verify, body, `t=${now},v1=${hex}`, apiKey, { now })).toBe('no_matching_signature');
  });

  it('explains that a parsed object is not the raw body', async () => {
    // As a handler behind a JSON body parser holds it: `req.body` is typed `any` there, so
    // nothing stops the mistake before run time.
    const parsedByTheFramework = JSON.parse(body);
    const error = await failure(verify, parsedByTheFramework, header, apiKey, { now });

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

interface NodeView {
  /** `req.headers[name]`: a repeated header is joined into one string. */
  headers: string | string[] | undefined;
  /** `req.headersDistinct[name]`: one element per time the header was sent. */
  headersDistinct: string[] | undefined;
}

/** The signature header as a Node server reads it, after a client sent it once per value. */
async function receivedByNode(values: string[]): Promise<NodeView> {
  const server = createServer((req, res) => {
    const view: NodeView = {
      headers: req.headers[WEBHOOK_SIGNATURE_HEADER],
      headersDistinct: req.headersDistinct[WEBHOOK_SIGNATURE_HEADER],
    };
    res.end(JSON.stringify(view));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const text = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', agent: false }, (res) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (received += chunk));
        res.on('end', () => resolve(received));
      });
      req.on('error', reject);
      req.setHeader(WEBHOOK_SIGNATURE_HEADER, values);
      req.end();
    });
    return JSON.parse(text) as NodeView;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("the header as Node's http hands it over", () => {
  const header = signedHeader(now);

  it('is accepted when sent once, from req.headers or req.headersDistinct', async () => {
    const received = await receivedByNode([header]);

    expect(received).toEqual({ headers: header, headersDistinct: [header] });
    expect(verifyWebhook(body, received.headers, apiKey, { now })).toEqual(payload);
    expect(verifyWebhook(body, received.headersDistinct, apiKey, { now })).toEqual(payload);
  });

  it('is rejected as malformed_header when sent twice, from req.headers or req.headersDistinct', async () => {
    const received = await receivedByNode([header, header]);

    expect(received).toEqual({ headers: `${header}, ${header}`, headersDistinct: [header, header] });
    for (const value of [received.headers, received.headersDistinct]) {
      expect(() => verifyWebhook(body, value, apiKey, { now })).toThrow(
        expect.objectContaining({ reason: 'malformed_header' }),
      );
    }
  });
});
