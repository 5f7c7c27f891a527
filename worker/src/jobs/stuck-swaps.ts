import { sql } from 'kysely';
import type { PgBoss } from 'pg-boss';
import type { Db } from '@doppel/core/db/connect';
import { BOSS_SCHEMA, queues } from '@doppel/core/queue/boss';
import type { Storage } from '@doppel/core/storage/storage';
import { failSwap } from './finish-swap';
import { retireSwapInputs } from './retire-inputs';
import { INTERNAL_FAILURE } from './swap-job';

/** Job states in which pg-boss will still run a job. */
const LIVE_JOB_STATES = ['created', 'retry', 'active'];

/**
 * Swaps left unfinished with no job that could still finish them (the job was lost with a
 * crashed process's transaction, or deleted): nothing would ever move them on, and they would
 * hold a concurrent-create slot of their key forever. They fail and are refunded, with their
 * webhook, and their inputs are retired. A minute of grace covers a job between two of its states.
 */
export async function failStuckSwaps(db: Db, boss: PgBoss, storage: Storage): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select s.id from swaps s
    where s.status in ('queued', 'preparing', 'processing')
      and s.updated_at < now() - interval '1 minute'
      and not exists (
        select 1 from ${sql.table(`${BOSS_SCHEMA}.job`)} j
        where j.name in (${queues.swap.name}, ${queues.swapDead.name})
          and j.state::text in (${sql.join(LIVE_JOB_STATES)})
          and j.data ->> 'swapId' = s.id)
    limit 500`.execute(db);
  const failed: string[] = [];
  for (const { id } of rows) {
    if (!(await failSwap(db, boss, id, INTERNAL_FAILURE))) continue;
    await retireSwapInputs(db, storage, id);
    failed.push(id);
  }
  return failed;
}
