import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropDatabase, startTestApp, type TestApp } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1' } });
});
afterAll(() => t.close());

describe('health probes', () => {
  it('answers /healthz without a key', async () => {
    const response = await t.request('/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers /readyz when the database is reachable and migrated', async () => {
    const response = await t.request('/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready' });
  });

  it('is never rate limited', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await t.request(i % 2 ? '/healthz' : '/readyz');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('answers /readyz with 503 when migrations are missing', async () => {
    const behind = await startTestApp();
    try {
      await behind.db.deleteFrom('kysely_migration' as never).execute();
      const response = await behind.request('/readyz');
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('api_temporarily_disabled');
    } finally {
      await behind.close();
    }
  });

  it('answers /readyz with 503 but /healthz with 200 once the database is gone', async () => {
    const doomed = await startTestApp();
    try {
      await dropDatabase(doomed.database);
      const ready = await doomed.request('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        error: {
          code: 'api_temporarily_disabled',
          message: expect.stringMatching(/^Not ready/),
          request_id: ready.headers.get('x-request-id'),
        },
      });
      expect(ready.headers.get('retry-after')).toBeTruthy();
      expect((await doomed.request('/healthz')).status).toBe(200);
    } finally {
      await doomed.close();
    }
  });
});
