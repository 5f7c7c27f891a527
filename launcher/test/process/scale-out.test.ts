import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '@doppel/core/accounts/api-keys';
import { demoPhoto, sendBytes } from '../support/intake-world';
import { eventually } from '@doppel/server/testing/poll';
import { startProcessIntake, type ProcessIntake } from '../support/process-intake';
import { startServerProcess, type ServerProcess } from '../support/server-process';

const PER_MINUTE = 20;
const SWAPS = 6;

let intake: ProcessIntake;
let apiA: ServerProcess;
let apiB: ServerProcess;
let workers: ServerProcess[];

beforeAll(async () => {
  intake = await startProcessIntake(
    { '/face.jpg': sendBytes(demoPhoto(1)), '/group.jpg': sendBytes(demoPhoto(2)) },
    { DOPPEL_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) },
  );
  // Two API processes and two worker processes on one PostgreSQL, as in production.
  [apiA, apiB, ...workers] = await Promise.all([
    startServerProcess({ ...intake.world.env, DOPPEL_ROLE: 'api' }),
    startServerProcess({ ...intake.world.env, DOPPEL_ROLE: 'api' }),
    startServerProcess({ ...intake.world.env, DOPPEL_ROLE: 'worker' }),
    startServerProcess({ ...intake.world.env, DOPPEL_ROLE: 'worker' }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([apiA, apiB, ...(workers ?? [])].filter(Boolean).map((p) => p.kill()));
  await intake?.close();
});

const me = (server: ServerProcess, apiKey: string) =>
  fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${apiKey}` } }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { error?: { code: string } },
  }));

describe('two API processes and two worker processes on one database', () => {
  it('process every swap exactly once, and wait=true on either API process returns when a worker finishes it', { timeout: 300_000 }, async () => {
    const account = await intake.createAccount({ credits: 50 });
    const created = await Promise.all(
      Array.from({ length: SWAPS }, (_, i) =>
        fetch(`${(i % 2 ? apiB : apiA).url}/api/v1/swaps?wait=true`, {
          method: 'POST',
          headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'image', source_url: intake.url('/face.jpg'), target_url: intake.url('/group.jpg') }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { id: string; status: string } })),
      ),
    );
    expect(created.map((c) => [c.status, c.body.status])).toEqual(Array(SWAPS).fill([201, 'done']));

    const ids = created.map((c) => c.body.id);
    const swapJobs = () =>
      sql<{ id: string; state: string; retry_count: number; swap_id: string }>`
        select id, state::text, retry_count, data ->> 'swapId' as swap_id from pgboss.job where name = 'swap'`.execute(intake.database.db);
    // A job completes just after its swap is done: it then retires the swap's inputs.
    await eventually('every swap job completed', async () => (await swapJobs()).rows.every((j) => j.state === 'completed'), 30_000);
    const jobs = await swapJobs();
    expect(jobs.rows.map((j) => j.swap_id).sort()).toEqual([...ids].sort());
    expect(jobs.rows.every((j) => j.state === 'completed' && j.retry_count === 0)).toBe(true);
    // Each job was finished by exactly one worker process, once.
    const finished = workers.flatMap((w) => w.logs.filter((l) => l.msg === 'job finished' && l.queue === 'swap').map((l) => String(l.job_id)));
    expect(finished.sort()).toEqual(jobs.rows.map((j) => j.id).sort());
    expect(workers.flatMap((w) => w.logs.filter((l) => l.msg === 'job failed'))).toEqual([]);
  });

  it('share one key’s rate limit exactly', async () => {
    const account = await intake.world.createAccount(intake.database);
    const answers = await Promise.all(Array.from({ length: PER_MINUTE + 10 }, (_, i) => me(i % 2 ? apiB : apiA, account.apiKey)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(PER_MINUTE);
    expect(answers.filter((a) => a.status === 429).map((a) => a.body.error?.code)).toEqual(Array(10).fill('rate_limited'));
  });

  it('stop accepting a revoked key on both within 1 s', async () => {
    const account = await intake.world.createAccount(intake.database);
    expect([(await me(apiA, account.apiKey)).status, (await me(apiB, account.apiKey)).status]).toEqual([200, 200]);
    await revokeApiKey(intake.database.db, account.apiKeyId);
    // The documented bound (docs/operations.md): no process accepts a key revoked a second ago.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = await Promise.all([me(apiA, account.apiKey), me(apiB, account.apiKey)]);
    expect(after.map((a) => [a.status, a.body.error?.code])).toEqual([
      [401, 'invalid_api_key'],
      [401, 'invalid_api_key'],
    ]);
  });
});
