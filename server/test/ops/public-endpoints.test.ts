import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1' } });
});
afterAll(() => t.close());

describe('endpoints outside the authenticated API', () => {
  it.each(['/healthz', '/readyz', '/api/v1/openapi.json', '/docs'])(
    'serves %s without a key, without rate limiting',
    async (path) => {
      for (let i = 0; i < 3; i++) {
        const response = await t.request(path);
        expect(response.status).toBe(200);
        expect(response.headers.get('x-request-id')).toMatch(/^req_/);
        expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      }
    },
  );

  it('answers an unknown docs asset with the not_found envelope', async () => {
    const response = await t.request('/docs/assets/secret.txt');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});
