import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';

const PER_MINUTE = 5;
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  const env = { DOPPEL_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE), DOPPEL_RATE_LIMIT_PER_DAY: '1000' };
  first = await startTestApp({ env });
  // A second server process on the same database, as behind a load balancer.
  second = await startTestApp({ env, shareWith: first });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

const nowSeconds = () => Date.now() / 1000;
const hitsOf = async (apiKeyId: string) =>
  (await first.db.selectFrom('rate_limit_hits').select('at').where('api_key_id', '=', apiKeyId).execute()).length;

describe('per-minute rate limit shared by two server instances', () => {
  it('refuses the request over the limit whichever instance gets it', async () => {
    const { apiKey } = await first.createAccount();
    const apps = [first, second];
    for (let i = 0; i < PER_MINUTE; i++) {
      const response = await apps[i % 2]!.request('/api/v1/me', { key: apiKey });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(PER_MINUTE));
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(PER_MINUTE - 1 - i));
    }
    for (const app of apps) {
      const refused = await app.request('/api/v1/me', { key: apiKey });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toEqual({
        code: 'rate_limited',
        message: expect.any(String),
        request_id: refused.headers.get('x-request-id'),
      });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const reset = Number(refused.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(nowSeconds());
      expect(reset).toBeLessThanOrEqual(nowSeconds() + 61);
      expect(refused.headers.get('x-ratelimit-limit')).toBe(String(PER_MINUTE));
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    }
  });

  it('admits exactly the limit among concurrent requests to both instances', async () => {
    const { apiKey, apiKeyId } = await first.createAccount();
    const statuses = await Promise.all(
      Array.from({ length: 4 * PER_MINUTE }, (_, i) =>
        [first, second][i % 2]!.request('/api/v1/swaps', { key: apiKey }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3 * PER_MINUTE);
    // Refused requests do not consume budget: only the admitted ones are stored.
    expect(await hitsOf(apiKeyId)).toBe(PER_MINUTE);
  });

  it('counts every endpoint, including requests that end in an error', async () => {
    const { apiKey } = await first.createAccount();
    const paths = ['/api/v1/me', '/api/v1/swaps', '/api/v1/swaps/swp_missing', '/api/v1/face-detect/fdt_missing', '/api/v1/swaps?limit=500'];
    const statuses = [];
    for (const path of paths) statuses.push((await first.request(path, { key: apiKey })).status);
    expect(statuses).toEqual([200, 200, 404, 404, 400]);
    const refused = await second.request('/api/v1/swaps/swp_missing', { method: 'DELETE', key: apiKey });
    expect(refused.status).toBe(429);
  });

  it('carries the budget headers on error responses of an authenticated key', async () => {
    const { apiKey } = await first.createAccount();
    const response = await first.request('/api/v1/swaps/swp_missing', { key: apiKey });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(PER_MINUTE));
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(PER_MINUTE - 1));
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(nowSeconds());
  });

  it('prunes hits that left the window and days that are over', async () => {
    const { apiKey, apiKeyId } = await first.createAccount();
    await first.db
      .insertInto('rate_limit_hits')
      .values([
        { api_key_id: apiKeyId, at: new Date(Date.now() - 61_000) },
        { api_key_id: apiKeyId, at: new Date(Date.now() - 3_600_000) },
      ])
      .execute();
    await first.db.insertInto('rate_limit_days').values({ api_key_id: apiKeyId, day: '2020-01-01', count: 9 }).execute();
    const response = await first.request('/api/v1/me', { key: apiKey });
    expect(response.body.rate_limit.remaining).toBe(PER_MINUTE - 1);
    expect(await hitsOf(apiKeyId)).toBe(1);
    const days = await first.db.selectFrom('rate_limit_days').select('count').where('api_key_id', '=', apiKeyId).execute();
    expect(days).toEqual([{ count: 1 }]);
  });

  it('keeps the budget of each key separate', async () => {
    const busy = await first.createAccount();
    const quiet = await first.createAccount();
    for (let i = 0; i <= PER_MINUTE; i++) await first.request('/api/v1/me', { key: busy.apiKey });
    expect((await first.request('/api/v1/me', { key: busy.apiKey })).status).toBe(429);
    const other = await second.request('/api/v1/me', { key: quiet.apiKey });
    expect(other.status).toBe(200);
    expect(other.body.rate_limit).toEqual({ limit: PER_MINUTE, window_seconds: 60, remaining: PER_MINUTE - 1 });
  });
});

describe('daily cap', () => {
  it('refuses the request over the daily cap with rate_limited_daily until 00:00 UTC', async () => {
    const daily = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '100', DOPPEL_RATE_LIMIT_PER_DAY: '3' } });
    try {
      const { apiKey } = await daily.createAccount();
      const remaining = [];
      for (let i = 0; i < 3; i++) {
        const response = await daily.request('/api/v1/me', { key: apiKey });
        expect(response.status).toBe(200);
        remaining.push(response.body.rate_limit.remaining);
      }
      // The smaller of the two budgets is reported.
      expect(remaining).toEqual([2, 1, 0]);

      const refused = await daily.request('/api/v1/me', { key: apiKey });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited_daily');
      const midnight = new Date();
      midnight.setUTCHours(24, 0, 0, 0);
      expect(Number(refused.headers.get('x-ratelimit-reset'))).toBe(midnight.getTime() / 1000);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(Math.abs(nowSeconds() + retryAfter - midnight.getTime() / 1000)).toBeLessThanOrEqual(2);
    } finally {
      await daily.close();
    }
  });
});
