import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import { startTestApp, type TestApp } from '../support/app';
import { faceDetectRow } from '../support/task-rows';

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
const admittedInWindow = async (apiKeyId: string) =>
  (await first.db.selectFrom('rate_limit_budgets').select('in_window').where('api_key_id', '=', apiKeyId).executeTakeFirstOrThrow())
    .in_window;

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
    expect(await admittedInWindow(apiKeyId)).toBe(PER_MINUTE);
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

  it('counts the GETs refused for their parameters, which make no read with the spend, like any other', async () => {
    const { apiKey } = await first.createAccount();
    const paths = ['/api/v1/swaps/not.an.id', '/api/v1/swaps?cursor=Zm9v', '/api/v1/swaps?limit=0', '/api/v1/swaps/swp_missing', '/api/v1/me'];
    const answers = [];
    for (const path of paths) answers.push(await first.request(path, { key: apiKey }));
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 404, 200]);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    expect((await second.request('/api/v1/swaps', { key: apiKey })).status).toBe(429);
  });

  it('counts a GET /face-detect/{taskId} refused for its id, which makes no read with the spend, like any other', async () => {
    const { apiKey } = await first.createAccount();
    const paths = ['/api/v1/face-detect/not.an.id', '/api/v1/face-detect/fdt_missing', '/api/v1/face-detect/has%20space'];
    const answers = [];
    for (const path of paths) answers.push(await first.request(path, { key: apiKey }));
    expect(answers.map((a) => [a.status, a.body.error.code, a.headers.get('x-ratelimit-remaining')])).toEqual([
      [400, 'validation_error', '4'],
      [404, 'not_found', '3'],
      [400, 'validation_error', '2'],
    ]);
  });

  it("answers a refused GET /face-detect/{taskId} with the 429 envelope alone, not the key's own task", async () => {
    const owner = await first.createAccount();
    const task = await insertFaceDetectTask(first.db, faceDetectRow(owner));
    for (let i = 0; i < PER_MINUTE; i++) {
      const admitted = await first.request(`/api/v1/face-detect/${task.id}`, { key: owner.apiKey });
      expect(admitted.status).toBe(200);
      expect(admitted.body.task_id).toBe(task.id);
    }
    // Neither process has refused this key yet: each refusal is the database's, made with the read.
    for (const app of [second, first]) {
      const refused = await app.request(`/api/v1/face-detect/${task.id}`, { key: owner.apiKey });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: 'rate_limited', message: expect.any(String), request_id: refused.headers.get('x-request-id') } });
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    }
  });

  it('carries the budget headers on error responses of an authenticated key', async () => {
    const { apiKey } = await first.createAccount();
    const response = await first.request('/api/v1/swaps/swp_missing', { key: apiKey });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(PER_MINUTE));
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(PER_MINUTE - 1));
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(nowSeconds());
  });

  it('forgets admissions that left the window and days that are over', async () => {
    const { apiKey, apiKeyId } = await first.createAccount();
    // A full window whose admissions are all just over a minute old, and a used-up day long past.
    const minuteAgo = Date.now() - 61_000;
    await first.db
      .insertInto('rate_limit_budgets')
      .values({ api_key_id: apiKeyId, ring_size: PER_MINUTE, tail: 2, in_window: PER_MINUTE, last_at: new Date(minuteAgo), day: '2020-01-01', day_count: 1000 })
      .execute();
    await first.db
      .insertInto('rate_limit_admissions')
      .values(Array.from({ length: PER_MINUTE }, (_, slot) => ({ api_key_id: apiKeyId, slot, at: new Date(minuteAgo - 1000 * slot) })))
      .execute();
    const response = await first.request('/api/v1/me', { key: apiKey });
    expect(response.status).toBe(200);
    expect(response.body.rate_limit.remaining).toBe(PER_MINUTE - 1);
    const budget = await first.db.selectFrom('rate_limit_budgets').select(['in_window', 'day_count']).where('api_key_id', '=', apiKeyId).executeTakeFirstOrThrow();
    expect(budget).toEqual({ in_window: 1, day_count: 1 });
  });

  it('lets admissions leave the window one by one, oldest first', async () => {
    const { apiKey, apiKeyId } = await first.createAccount();
    // Two admissions just over a minute old, then two recent ones: two slots are free again.
    const now = Date.now();
    const times = [now - 62_000, now - 61_000, now - 20_000, now - 10_000];
    await first.db
      .insertInto('rate_limit_budgets')
      .values({ api_key_id: apiKeyId, ring_size: PER_MINUTE, tail: 3, in_window: 4, last_at: new Date(times[3]!), day_count: 0 })
      .execute();
    await first.db
      .insertInto('rate_limit_admissions')
      .values(times.map((at, i) => ({ api_key_id: apiKeyId, slot: (3 + i) % PER_MINUTE, at: new Date(at) })))
      .execute();
    const admitted = await first.request('/api/v1/me', { key: apiKey });
    expect(admitted.body.rate_limit.remaining).toBe(PER_MINUTE - 3);
    // The oldest admission still in the window decides when the budget frees up.
    expect(Number(admitted.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((times[2]! + 60_000) / 1000));
  });

  it('applies a changed limit to the admissions already in the window', async () => {
    const { apiKey } = await first.createAccount();
    for (let i = 0; i < 3; i++) expect((await first.request('/api/v1/me', { key: apiKey })).status).toBe(200);
    const stricter = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '2' }, shareWith: first });
    const looser = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '10' }, shareWith: first });
    try {
      expect((await stricter.request('/api/v1/me', { key: apiKey })).status).toBe(429);
      const admitted = await looser.request('/api/v1/me', { key: apiKey });
      // The stricter limit laid out only the newest two: no more can matter to a limit of two.
      expect(admitted.body.rate_limit.remaining).toBe(10 - 2 - 1);
    } finally {
      await looser.close();
      await stricter.close();
    }
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
