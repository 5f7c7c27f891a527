import { contract } from '@doppel/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApiEnabled } from '../../src/settings';
import { startTestApp, type TestAccount, type TestApp } from '../support/app';

let t: TestApp;
let account: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  account = await t.createAccount();
});
afterAll(() => t.close());

const endpoints = Object.values(contract).map((route) => ({
  method: route.method,
  path: route.path.replace(':taskId', 'swp_x'),
  json: route.method === 'POST' ? { target_url: 'https://example.com/a.jpg' } : undefined,
}));

describe('the global API switch', () => {
  it.each(endpoints)('answers $method $path with api_temporarily_disabled while off', async ({ method, path, json }) => {
    await setApiEnabled(t.db, false);
    try {
      for (const key of [account.apiKey, undefined]) {
        const response = await t.request(path, { method, json, key });
        expect(response.status).toBe(503);
        expect(response.body.error.code).toBe('api_temporarily_disabled');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    } finally {
      await setApiEnabled(t.db, true);
    }
  });

  it('serves again once switched back on', async () => {
    await setApiEnabled(t.db, false);
    expect((await t.request('/api/v1/me', { key: account.apiKey })).status).toBe(503);
    await setApiEnabled(t.db, true);
    expect((await t.request('/api/v1/me', { key: account.apiKey })).status).toBe(200);
  });

  it('leaves health checks answering while off', async () => {
    await setApiEnabled(t.db, false);
    try {
      expect((await t.request('/healthz')).status).toBe(200);
      expect((await t.request('/readyz')).status).toBe(200);
    } finally {
      await setApiEnabled(t.db, true);
    }
  });
});
