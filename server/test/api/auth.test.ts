import { contract } from '@doppel/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '@doppel/core/accounts/api-keys';
import { generateApiKey } from '@doppel/core/keys/key-format';
import { startTestApp, type TestApp, type TestResponse } from '../support/app';
import { eventually } from '../support/poll';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_AUTH_FAILURES_PER_MINUTE: '1000' } });
});
afterAll(() => t.close());

/** Every endpoint of the contract, with a body that passes validation where one is needed. */
const endpoints = Object.values(contract).map((route) => ({
  method: route.method,
  path: route.path.replace(':taskId', 'swp_x'),
  json: route.method === 'POST' ? { type: 'image', target_url: 'https://example.com/a.jpg' } : undefined,
}));

function expectError(response: TestResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
}

describe('authentication', () => {
  it.each(endpoints)('answers $method $path without Authorization with unauthorized', async ({ method, path, json }) => {
    const response = await t.request(path, { method, json });
    expectError(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bare token', 'dpl_abc'],
    ['no token', 'Bearer'],
    ['two tokens', 'Bearer dpl_a dpl_b'],
    ['an empty header', ''],
  ])('answers a malformed header (%s) with unauthorized', async (_name, authorization) => {
    expectError(await t.request('/api/v1/me', { headers: { authorization } }), 401, 'unauthorized');
  });

  it.each(endpoints)('answers $method $path with an unknown key with invalid_api_key', async ({ method, path, json }) => {
    const response = await t.request(path, { method, json, key: generateApiKey() });
    expectError(response, 401, 'invalid_api_key');
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('answers a token that is not shaped like a key with invalid_api_key', async () => {
    expectError(await t.request('/api/v1/me', { key: 'not-a-doppel-key' }), 401, 'invalid_api_key');
  });

  it('answers a revoked key with invalid_api_key within a second, on every server process', async () => {
    const second = await startTestApp({ shareWith: t, env: { DOPPEL_AUTH_FAILURES_PER_MINUTE: '1000' } });
    try {
      const account = await t.createAccount();
      // Both processes have seen (and remember) the key before it is revoked.
      for (const app of [t, second]) expect((await app.request('/api/v1/me', { key: account.apiKey })).status).toBe(200);
      await revokeApiKey(t.db, account.apiKeyId);
      for (const app of [second, t]) {
        await eventually('the revoked key refused', async () => (await app.request('/api/v1/me', { key: account.apiKey })).status === 401, 1000);
        expectError(await app.request('/api/v1/me', { key: account.apiKey }), 401, 'invalid_api_key');
      }
    } finally {
      await second.close();
    }
  });

  it('accepts the scheme name in any case', async () => {
    const account = await t.createAccount();
    const response = await t.request('/api/v1/me', { headers: { authorization: `bearer ${account.apiKey}` } });
    expect(response.status).toBe(200);
  });

  it('keeps last_used_at of the key', async () => {
    const account = await t.createAccount();
    const lastUsed = () =>
      t.db.selectFrom('api_keys').select('last_used_at').where('id', '=', account.apiKeyId).executeTakeFirstOrThrow();
    expect((await lastUsed()).last_used_at).toBeNull();
    const before = Date.now();
    await t.request('/api/v1/me', { key: account.apiKey });
    const { last_used_at } = await lastUsed();
    expect(last_used_at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('carries no rate-limit headers on a refused authentication', async () => {
    const response = await t.request('/api/v1/me', { key: generateApiKey() });
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('failed-authentication throttle', () => {
  const LIMIT = 3;
  let throttled: TestApp;
  beforeAll(async () => {
    throttled = await startTestApp({ env: { DOPPEL_AUTH_FAILURES_PER_MINUTE: String(LIMIT) } });
  });
  afterAll(() => throttled.close());

  /** Bad keys until the address is refused (a minute boundary may reset the count once). */
  async function exhaust(app: TestApp, headers: Record<string, string> = {}): Promise<string[]> {
    const codes: string[] = [];
    for (let i = 0; i < 2 * LIMIT + 1 && codes.at(-1) !== 'rate_limited'; i++) {
      codes.push((await app.request('/api/v1/me', { key: generateApiKey(), headers })).body.error.code);
    }
    return codes;
  }

  it('refuses unknown keys from an address over its failure budget with rate_limited', async () => {
    const codes = await exhaust(throttled);
    expect(codes.at(-1)).toBe('rate_limited');
    expect(codes.filter((c) => c === 'invalid_api_key').length).toBeGreaterThanOrEqual(LIMIT);

    const refused = await throttled.request('/api/v1/me', { key: generateApiKey() });
    expectError(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
  });

  it('never refuses a live key, whatever its address did: a customer is not locked out by a neighbour', async () => {
    expect((await exhaust(throttled)).at(-1)).toBe('rate_limited');
    const account = await throttled.createAccount();
    const me = await throttled.request('/api/v1/me', { key: account.apiKey });
    expect(me.status).toBe(200);
  });

  it('refuses a blocked address on every server process within a second, and still serves its live keys', async () => {
    // A database of their own: this address is already blocked in the other tests' one.
    const env = { DOPPEL_AUTH_FAILURES_PER_MINUTE: String(LIMIT) };
    const first = await startTestApp({ env });
    const second = await startTestApp({ shareWith: first, env });
    try {
      const account = await first.createAccount();
      expect((await exhaust(first)).at(-1)).toBe('rate_limited');
      await eventually('the blocked address refused', async () => (await second.request('/api/v1/me', { key: generateApiKey() })).status === 429, 1000);
      expect((await second.request('/api/v1/me', { key: account.apiKey })).status).toBe(200);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('does not count a missing header as a failed attempt', async () => {
    const fresh = await startTestApp({ env: { DOPPEL_AUTH_FAILURES_PER_MINUTE: '1' } });
    try {
      const account = await fresh.createAccount();
      for (let i = 0; i < 3; i++) expect((await fresh.request('/api/v1/me')).status).toBe(401);
      expect((await fresh.request('/api/v1/me', { key: account.apiKey })).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

describe('the failed-authentication throttle behind a proxy', () => {
  const LIMIT = 3;

  async function failUntilRefused(app: TestApp, forwardedFor: string): Promise<string | undefined> {
    let code: string | undefined;
    for (let i = 0; i < 2 * LIMIT + 1 && code !== 'rate_limited'; i++) {
      code = (await app.request('/api/v1/me', { key: generateApiKey(), headers: { 'x-forwarded-for': forwardedFor } })).body.error.code;
    }
    return code;
  }
  const badKeyFrom = (app: TestApp, forwardedFor: string) =>
    app.request('/api/v1/me', { key: generateApiKey(), headers: { 'x-forwarded-for': forwardedFor } }).then((r) => r.body.error.code);

  it('with DOPPEL_TRUST_PROXY=1 takes the address our proxy saw, so a spoofed X-Forwarded-For entry locks out nobody else', async () => {
    const app = await startTestApp({ env: { DOPPEL_AUTH_FAILURES_PER_MINUTE: String(LIMIT), DOPPEL_TRUST_PROXY: '1' } });
    try {
      // The attacker writes the victim's address in; our proxy appends the attacker's own.
      expect(await failUntilRefused(app, '203.0.113.9, 198.51.100.7')).toBe('rate_limited');
      expect(await badKeyFrom(app, '198.51.100.7')).toBe('rate_limited');
      expect(await badKeyFrom(app, '203.0.113.9')).toBe('invalid_api_key');
    } finally {
      await app.close();
    }
  });

  it('with the default budget, refuses the 21st bad key of one client behind the proxy, and still serves every customer there', async () => {
    const app = await startTestApp({ env: { DOPPEL_TRUST_PROXY: '1' } });
    try {
      const [neighbour, customer] = [await app.createAccount(), await app.createAccount()];
      // The attacker names a victim's address; our proxy appends the attacker's own.
      const codes: string[] = [];
      // 21 requests, or up to 20 more if a minute turned meanwhile (the count is per clock minute).
      for (let i = 0; i < 41 && codes.at(-1) !== 'rate_limited'; i++) codes.push(await badKeyFrom(app, '203.0.113.9, 198.51.100.7'));
      expect(codes.at(-1)).toBe('rate_limited');
      expect(codes.filter((c) => c === 'invalid_api_key').length).toBeGreaterThanOrEqual(20);

      const me = (key: string, forwardedFor: string) => app.request('/api/v1/me', { key, headers: { 'x-forwarded-for': forwardedFor } }).then((r) => r.status);
      expect(await me(neighbour.apiKey, '198.51.100.7')).toBe(200);
      expect(await me(customer.apiKey, '198.51.100.8')).toBe(200);
      expect(await badKeyFrom(app, '203.0.113.9')).toBe('invalid_api_key');
    } finally {
      await app.close();
    }
  });

  it('counts IPv6 clients by their /64', async () => {
    const app = await startTestApp({ env: { DOPPEL_AUTH_FAILURES_PER_MINUTE: String(LIMIT), DOPPEL_TRUST_PROXY: '127.0.0.1/32' } });
    try {
      expect(await failUntilRefused(app, '2001:db8:1:2::1')).toBe('rate_limited');
      expect(await badKeyFrom(app, '2001:db8:1:2:ffff::9')).toBe('rate_limited');
      expect(await badKeyFrom(app, '2001:db8:1:3::1')).toBe('invalid_api_key');
    } finally {
      await app.close();
    }
  });
});
