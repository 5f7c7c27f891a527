import { contract } from '@doppel/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApiEnabled } from '@doppel/core/settings';
import { startTestApp, type TestAccount, type TestApp } from '../support/app';
import { eventually } from '../support/poll';

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

/** Flips the switch and waits (at most a second) until the server answers accordingly. */
async function switchApi(enabled: boolean, app = t) {
  await setApiEnabled(app.db, enabled);
  await eventually(`the API switched ${enabled ? 'on' : 'off'}`, async () => ((await app.request('/api/v1/me')).status === 503) !== enabled, 1000);
}

describe('the global API switch', () => {
  it.each(endpoints)('answers $method $path with api_temporarily_disabled while off', async ({ method, path, json }) => {
    await switchApi(false);
    try {
      for (const key of [account.apiKey, undefined]) {
        const response = await t.request(path, { method, json, key });
        expect(response.status).toBe(503);
        expect(response.body.error.code).toBe('api_temporarily_disabled');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    } finally {
      await switchApi(true);
    }
  });

  it('serves again once switched back on', async () => {
    await switchApi(false);
    expect((await t.request('/api/v1/me', { key: account.apiKey })).status).toBe(503);
    await switchApi(true);
    expect((await t.request('/api/v1/me', { key: account.apiKey })).status).toBe(200);
  });

  it('reaches every server process within a second', async () => {
    const second = await startTestApp({ shareWith: t });
    try {
      // Both processes have answered (and remember the switch as on) before it flips.
      for (const app of [t, second]) expect((await app.request('/api/v1/me', { key: account.apiKey })).status).toBe(200);
      await setApiEnabled(t.db, false);
      await switchApi(false, second);
      await switchApi(true, second);
      expect((await t.request('/api/v1/me', { key: account.apiKey })).status).toBe(200);
    } finally {
      await setApiEnabled(t.db, true);
      await second.close();
    }
  });

  it('leaves health checks answering while off', async () => {
    await switchApi(false);
    try {
      expect((await t.request('/healthz')).status).toBe(200);
      expect((await t.request('/readyz')).status).toBe(200);
    } finally {
      await switchApi(true);
    }
  });
});
