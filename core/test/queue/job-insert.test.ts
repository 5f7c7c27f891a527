import { sql } from 'kysely';
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobInsertStep, queues, sendJob, startBoss } from '../../src/queue/boss';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;
let boss: PgBoss;
beforeAll(async () => {
  database = await createTestDatabase();
  boss = await startBoss(database.url, () => {});
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await database?.close();
});

/** A swap job's row as pg-boss keeps it: every column but the id and the times, with how long it is kept. */
async function jobOf(swapId: string): Promise<Record<string, unknown>> {
  const { rows } = await sql<Record<string, unknown>>`
    select *, keep_until - start_after as kept_for from pgboss.job where name = ${queues.swap.name} and data ->> 'swapId' = ${swapId}`.execute(
    database.db,
  );
  expect(rows).toHaveLength(1);
  const { id: _id, created_on: _created, start_after: _start, keep_until: _keep, data: _data, ...row } = rows[0]!;
  return row;
}

describe("a swap job written by the create's own statement", () => {
  it.each([
    ['an image swap', undefined],
    ['a long render, grouped by its user', { id: 'usr_grouped' }],
  ])('is the row pg-boss writes for it (%s)', async (_, group) => {
    const [sent, written] = group ? ['swp_sentGrouped', 'swp_writtenGrouped'] : ['swp_sent', 'swp_written'];
    await sendJob(boss, database.db, queues.swap.name, { swapId: sent }, { group });
    await sql`with job as (${jobInsertStep(queues.swap, { swapId: written }, { group })}) select 1`.execute(database.db);

    expect(await jobOf(written)).toEqual(await jobOf(sent));
    expect(await jobOf(written)).toMatchObject({ state: 'created', group_id: group?.id ?? null });
  });

  it('is fetched and run by a pg-boss worker', async () => {
    await sql`with job as (${jobInsertStep(queues.swap, { swapId: 'swp_fetched' })}) select 1`.execute(database.db);
    const jobs = await boss.fetch<{ swapId: string }>(queues.swap.name, { batchSize: 10 });
    expect(jobs.map((job) => job.data.swapId)).toContain('swp_fetched');
  });
});
