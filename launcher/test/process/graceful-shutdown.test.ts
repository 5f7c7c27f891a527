import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '@doppel/server/testing/app';
import { holdUntilReleased, until } from '@doppel/core/testing/held-route';
import { demoPhoto, sendBytes } from '../support/intake-world';
import { startProcessIntake, type ProcessIntake } from '../support/process-intake';
import { startServerProcess } from '../support/server-process';

const GRACE_SECONDS = 10;
const IN_FLIGHT = 5;

let intake: ProcessIntake;
const slowTarget = holdUntilReleased(sendBytes(demoPhoto(2)));
const heldForever = holdUntilReleased(sendBytes(demoPhoto(2)));

beforeAll(async () => {
  intake = await startProcessIntake(
    {
      '/face.jpg': sendBytes(demoPhoto(1)),
      '/group.jpg': sendBytes(demoPhoto(2)),
      '/slow-target.jpg': slowTarget.route,
      '/held.jpg': heldForever.route,
    },
    { DOPPEL_SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS) },
  );
});

afterAll(async () => {
  slowTarget.release();
  heldForever.release();
  await intake?.close();
});

describe('SIGTERM to the server process', () => {
  it(`answers every create in flight, hands running jobs back to the queue and exits 0 within ${GRACE_SECONDS} s`, async () => {
    const account = await intake.createAccount({ credits: 20 });
    const server = await startServerProcess(intake.world.env);
    try {
      const responses = Promise.all(Array.from({ length: IN_FLIGHT }, () => intake.create(server.url, account.apiKey, '/slow-target.jpg')));
      await until(() => slowTarget.held === IN_FLIGHT, 'every create to be fetching its target');

      server.child.kill('SIGTERM');
      await server.logLine((l) => l.msg === 'shutting down');
      slowTarget.release();

      const answered = await responses;
      expect(answered.map((r) => r.status)).toEqual(Array(IN_FLIGHT).fill(201));
      // Exit code 0: the process stopped before its grace period ran out (it exits 1 then).
      expect(await server.exited).toBe(0);
      expect(server.logs.filter((l) => Number(l.level) >= 50)).toEqual([]);
    } finally {
      await server.kill();
    }

    const swaps = await intake.database.db.selectFrom('swaps').select(['id', 'status']).where('user_id', '=', account.userId).execute();
    expect(swaps).toHaveLength(IN_FLIGHT);
    // Every swap's job is finished or waiting for another worker; none is left marked running.
    const jobs = await sql<{ state: string }>`select state from pgboss.job where name = 'swap'`.execute(intake.database.db);
    expect(jobs.rows).toHaveLength(IN_FLIGHT);
    expect(jobs.rows.filter((j) => j.state === 'active')).toEqual([]);
  });

  it('ends a wait=true long poll before the deadline with the swap as it is, and still exits 0', async () => {
    const account = await intake.createAccount({ credits: 5 });
    // No workers here: nothing will finish the swap, so only the shutdown can end the wait.
    const server = await startServerProcess({ ...intake.world.env, DOPPEL_ROLE: 'api', DOPPEL_SHUTDOWN_GRACE_SECONDS: '4' });
    try {
      const waiting = intake.create(server.url, account.apiKey, '/group.jpg', {}, { wait: 'true' });
      await until(
        async () => (await intake.database.db.selectFrom('swaps').select('id').where('user_id', '=', account.userId).execute()).length === 1,
        'the swap to be created and waited on',
      );
      server.child.kill('SIGTERM');
      const answered = await waiting;
      expect([answered.status, answered.body]).toMatchObject([201, { status: 'queued' }]);
      expect(await server.exited).toBe(0);
    } finally {
      await server.kill();
    }
  });

  it('exits at once on a second signal, even with a request still running', async () => {
    const account = await intake.createAccount({ credits: 5 });
    const server = await startServerProcess(intake.world.env);
    try {
      const pending = intake.create(server.url, account.apiKey, '/held.jpg').catch((error: unknown) => error);
      await until(() => heldForever.held === 1, 'the create to be fetching its target');
      server.child.kill('SIGTERM');
      await server.logLine((l) => l.msg === 'shutting down');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(143);
      expect(await pending).toBeInstanceOf(Error);
    } finally {
      await server.kill();
    }
  });
});

describe('while draining', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers new requests with api_temporarily_disabled, Retry-After and Connection: close, in the envelope', async () => {
    const account = await t.createAccount();
    expect((await t.request('/api/v1/me', { key: account.apiKey })).status).toBe(200);
    t.app.deps.drain.begin();
    for (const path of ['/api/v1/me', '/api/v1/swaps/swp_x', '/healthz', '/readyz', '/no/such/path']) {
      const response = await t.request(path, { key: account.apiKey });
      expect([response.status, response.headers.get('retry-after'), response.headers.get('connection')]).toEqual([503, '5', 'close']);
      expect(response.body).toEqual({
        error: { code: 'api_temporarily_disabled', message: expect.any(String), request_id: response.headers.get('x-request-id') },
      });
    }
  });
});
