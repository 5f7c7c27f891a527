import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  t = await startTestApp({ env: { DOPPEL_LOG_LEVEL: 'info' }, logStream });
});
afterAll(() => t.close());

const linesOf = (requestId: string) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.request_id === requestId);

describe('request logs', () => {
  it('are JSON lines carrying the request id', async () => {
    const { apiKey } = await t.createAccount();
    const response = await t.request('/api/v1/me', { key: apiKey });
    const logged = linesOf(response.headers.get('x-request-id')!);
    expect(logged.length).toBeGreaterThanOrEqual(2);
    expect(logged).toContainEqual(
      expect.objectContaining({ req: expect.objectContaining({ method: 'GET', url: '/api/v1/me' }) }),
    );
    expect(logged).toContainEqual(expect.objectContaining({ res: { statusCode: 200 } }));
  });

  it('never contain the API key, the Authorization header or a body', async () => {
    const { apiKey } = await t.createAccount();
    const secretBody = { target_url: 'https://user:hunter2@example.com/private-photo.jpg' };
    const responses = [
      await t.request('/api/v1/me', { key: apiKey }),
      await t.request('/api/v1/face-detect', { method: 'POST', key: apiKey, json: secretBody }),
      await t.request(`/api/v1/swaps?cursor=${apiKey}`, { key: apiKey }),
      await t.request('/api/v1/me', { key: `${apiKey}x` }),
    ];
    for (const response of responses) expect(linesOf(response.headers.get('x-request-id')!).length).toBeGreaterThan(0);
    const all = lines.join('\n');
    expect(all).not.toContain(apiKey.slice(4));
    expect(all.toLowerCase()).not.toContain('authorization');
    expect(all).not.toContain('bearer');
    expect(all).not.toContain('hunter2');
    expect(all).not.toContain('private-photo');
  });
});
