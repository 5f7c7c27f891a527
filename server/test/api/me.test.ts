import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '@doppel/core/accounts/credits';
import { startTestApp, type TestApp } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '30' } });
});
afterAll(() => t.close());

describe('GET /me', () => {
  it('returns the account snapshot of the calling key', async () => {
    const account = await t.createAccount({ credits: 7, tier: 'pro', emailVerified: true });
    await grantCredits(t.db, account.userId, 'monthly', 5);
    await grantCredits(t.db, account.userId, 'subscription', 2);

    const response = await t.request('/api/v1/me', { key: account.apiKey });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      user_id: account.userId,
      email_verified: true,
      subscription_tier: 'pro',
      credits: { permanent: 7, monthly: 5, subscription: 2, total: 14 },
      rate_limit: { limit: 30, window_seconds: 60, remaining: 29 },
    });
  });

  it('shows the live rate-limit state, counting the request itself', async () => {
    const { apiKey } = await t.createAccount();
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const response = await t.request('/api/v1/me', { key: apiKey });
      remaining.push(response.body.rate_limit.remaining);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(response.body.rate_limit.remaining));
    }
    expect(remaining).toEqual([29, 28, 27]);
  });

  it('shows a new account with no credits as zero in every bucket', async () => {
    const { apiKey, userId } = await t.createAccount();
    const { body } = await t.request('/api/v1/me', { key: apiKey });
    expect(body.user_id).toBe(userId);
    expect(body.email_verified).toBe(false);
    expect(body.subscription_tier).toBe('free');
    expect(body.credits).toEqual({ permanent: 0, monthly: 0, subscription: 0, total: 0 });
  });
});
