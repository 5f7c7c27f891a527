import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestAccount, type TestApp } from '../support/app';

const logLines: string[] = [];
let t: TestApp;
let account: TestAccount;
beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  t = await startTestApp({ env: { DOPPEL_LOG_LEVEL: 'info' }, logStream });
  account = await t.createAccount();
  // A fault that is not an outage: the database answers, but a table the request needs is gone.
  await sql`drop table api_keys cascade`.execute(t.db);
});
afterAll(() => t.close());

describe('internal_error', () => {
  it('answers a request that fails unexpectedly with a generic internal_error', async () => {
    const response = await t.request('/api/v1/me', { key: account.apiKey });
    const requestId = response.headers.get('x-request-id');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      error: {
        code: 'internal_error',
        message: 'An unexpected error occurred; it is safe to retry.',
        request_id: requestId,
      },
    });
    expect(response.text).not.toMatch(/select|database|postgres|stack|at /i);

    const logged = logLines.map((line) => JSON.parse(line)).find((l) => l.request_id === requestId && l.err);
    expect(logged).toMatchObject({ level: 50, msg: 'unexpected error', err: { message: expect.any(String) } });
    expect(logLines.join('\n')).not.toContain(account.apiKey);
  });

  it('still answers the liveness probe', async () => {
    expect((await t.request('/healthz')).status).toBe(200);
  });
});
