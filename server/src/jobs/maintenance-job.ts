import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db } from '../db/connect';
import { deleteOrphanedReservations } from '../intake/concurrency';
import { pruneIdempotencyKeys } from '../intake/idempotency';
import type { Storage } from '../storage/storage';
import type { PgBoss } from 'pg-boss';
import { failStuckSwaps } from './stuck-swaps';

/** How often housekeeping runs (cron). */
export const MAINTENANCE_SCHEDULE = '*/10 * * * *';

const storedKeys = (inputs: unknown): string[] => {
  const { target, sources } = inputs as { target?: { key?: string }; sources?: { key?: string }[] };
  return [target?.key, ...(sources ?? []).map((s) => s.key)].filter((k): k is string => typeof k === 'string');
};

/**
 * Housekeeping: Idempotency-Keys past their retention, create reservations of crashed requests,
 * tasks older than the retention period with their stored files (a task removed here answers
 * not_found like any unknown id), and swaps that no job will ever finish.
 */
export async function runMaintenance(deps: { db: Db; storage: Storage; config: Config; boss: PgBoss }): Promise<void> {
  const { db, storage, config } = deps;
  await pruneIdempotencyKeys(db, config.idempotencyRetentionHours);
  await deleteOrphanedReservations(db);

  const cutoff = sql<Date>`now() - make_interval(days => ${config.retentionDays})`;
  const swaps = await db
    .selectFrom('swaps')
    .select(['id', 'inputs', 'result_key'])
    .where('created_at', '<', cutoff)
    .where('status', 'in', ['done', 'failed', 'canceled'])
    .limit(500)
    .execute();
  for (const swap of swaps) {
    await storage.delete([...storedKeys(swap.inputs), ...(swap.result_key ? [swap.result_key] : [])]);
    // Its webhook events and their attempts go with it (on delete cascade).
    await db.deleteFrom('swaps').where('id', '=', swap.id).execute();
  }

  const detections = await db
    .selectFrom('face_detect_tasks')
    .select(['id', 'target'])
    .where('created_at', '<', cutoff)
    .where('status', 'in', ['done', 'failed'])
    .limit(500)
    .execute();
  for (const task of detections) {
    await storage.delete(storedKeys({ target: task.target }));
    await db.deleteFrom('face_detect_tasks').where('id', '=', task.id).execute();
  }

  await failStuckSwaps(db, deps.boss);
}
