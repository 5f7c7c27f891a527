import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountSnapshot } from '../src';
import { Doppel, DoppelError } from '../src';
import { API_KEY, clientFor } from './helpers/client';
import { scripted, startServer, type TestServer } from './helpers/server';

const account: AccountSnapshot = {
  user_id: 'user_1',
  email_verified: true,
  subscription_tier: 'pro',
  credits: { permanent: 5, monthly: 10, subscription: 0, total: 15 },
  rate_limit: { limit: 60, window_seconds: 60, remaining: 59 },
};

let server: TestServer;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
});

describe('new Doppel()', () => {
  it('sends the key as a Bearer token to GET /api/v1/me and returns the account', async () => {
    server = await startServer(scripted({ status: 200, body: account }));

    await expect(clientFor(server).me()).resolves.toEqual(account);

    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/api/v1/me' });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it.each(['', '/api/v1', '/api/v1/', '/'])('accepts the origin or the spec base URL (suffix %j)', async (suffix) => {
    server = await startServer(scripted({ status: 200, body: account }));

    await clientFor(server, { baseUrl: `${server.url}${suffix}` }).me();

    expect(server.requests[0]?.url).toBe('/api/v1/me');
  });

  it('keeps a path prefix in front of /api/v1 (API behind a reverse-proxy path)', async () => {
    server = await startServer(scripted({ status: 200, body: account }));

    await clientFor(server, { baseUrl: `${server.url}/doppel/api/v1` }).me();

    expect(server.requests[0]?.url).toBe('/doppel/api/v1/me');
  });

  it('reads DOPPEL_API_KEY and DOPPEL_BASE_URL when no options are given', async () => {
    server = await startServer(scripted({ status: 200, body: account }));
    vi.stubEnv('DOPPEL_API_KEY', 'dk_from_env');
    vi.stubEnv('DOPPEL_BASE_URL', server.url);

    await new Doppel().me();

    expect(server.requests[0]?.headers.authorization).toBe('Bearer dk_from_env');
  });

  it('refuses to start without an API key or base URL', () => {
    vi.stubEnv('DOPPEL_API_KEY', '');
    vi.stubEnv('DOPPEL_BASE_URL', '');

    expect(() => new Doppel({ baseUrl: 'https://api.example.com' })).toThrow(DoppelError);
    expect(() => new Doppel({ apiKey: API_KEY })).toThrow(/base URL/);
    expect(() => new Doppel({ apiKey: API_KEY, baseUrl: 'not a url' })).toThrow(/absolute URL/);
  });

  it('uses the fetch it is given', async () => {
    server = await startServer(scripted({ status: 200, body: account }));
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      seen.push(String(input));
      return globalThis.fetch(input, init);
    };

    await clientFor(server, { fetch }).me();

    expect(seen).toEqual([`${server.url}/api/v1/me`]);
  });
});
