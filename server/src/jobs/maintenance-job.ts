import { sql } from 'kysely';
import type { Config } from '../config';
import type { Db } from '../db/connect';
import type { SwapInputs } from '../db/stored-inputs';
import { pruneAuthFailures } from '../auth/auth-throttle';
import { deleteOrphanedReservations } from '../intake/concurrency';
import { pruneIdempotencyKeys } from '../intake/idempotency';
import { thumbnailKey } from '../storage/keys';
import type { Storage } from '../storage/storage';
import { forgetStoredFiles } from '../storage/stored-files';
import type { PgBoss } from 'pg-boss';
import { pruneIdleBudgets } from '../rate-limit/request-budget';
import { failStuckSwaps } from './stuck-swaps';

/** How often housekeeping runs (cron). */
export const MAINTENANCE_SCHEDULE = '*/10 * * * *';

/**
 * A task's inputs (gone already unless it never ended cleanly) and their thumbnails. Rows written
 * by hand (an operator's, a test's) may lack some keys: delete the ones there are.
 */
const storedKeys = (taskId: string, { target, sources = [] }: Partial<SwapInputs>): string[] => {
  const roles = ['target', ...sources.map((_, i) => `source${i + 1}`)];
  return [target?.key, ...sources.map((s) => s.key), ...roles.map((role) => thumbnailKey(taskId, role))].filter(
    (k): k is string => typeof k === 'string',
  );
};

/** Rows per batch: each batch is one storage call and one delete; batches run until none is left. */
const RETENTION_BATCH = 500;

/**
 * Housekeeping: Idempotency-Keys past their retention, create reservations of crashed requests,
 * rate-limit rows that hold nothing any more (revoked keys, keys idle since before today), past
 * windows of failed authentications, tasks older than the retention period with their stored
 * files (a task removed here answers not_found like any unknown id), and swaps that no job will
 * ever finish.
 */
export async function runMaintenance(deps: { db: Db; storage: Storage; config: Config; boss: PgBoss }): Promise<void> {
  const { db, storage, config } = deps;
  await pruneIdempotencyKeys(db, config.idempotencyRetentionHours);
  await deleteOrphanedReservations(db);
  await pruneIdleBudgets(db);
  await pruneAuthFailures(db);

  const cutoff = sql<Date>`now() - make_interval(days => ${config.retentionDays})`;
  for (;;) {
    const swaps = await db
      .selectFrom('swaps')
      .select(['id', 'inputs', 'result_key'])
      .where('created_at', '<', cutoff)
      .where('status', 'in', ['done', 'failed', 'canceled'])
      .limit(RETENTION_BATCH)
      .execute();
    if (swaps.length === 0) break;
    const keys = swaps.flatMap((swap) => [...storedKeys(swap.id, swap.inputs), ...(swap.result_key ? [swap.result_key] : [])]);
    await storage.delete(keys);
    // Their webhook events and attempts go with them (on delete cascade); their bytes stop counting.
    await db.transaction().execute(async (trx) => {
      await forgetStoredFiles(trx, keys);
      await trx.deleteFrom('swaps').where('id', 'in', swaps.map((swap) => swap.id)).execute();
    });
  }

  for (;;) {
    const detections = await db
      .selectFrom('face_detect_tasks')
      .select(['id', 'target'])
      .where('created_at', '<', cutoff)
      .where('status', 'in', ['done', 'failed'])
      .limit(RETENTION_BATCH)
      .execute();
    if (detections.length === 0) break;
    const keys = detections.flatMap((task) => storedKeys(task.id, { target: task.target }));
    await storage.delete(keys);
    await db.transaction().execute(async (trx) => {
      await forgetStoredFiles(trx, keys);
      await trx.deleteFrom('face_detect_tasks').where('id', 'in', detections.map((task) => task.id)).execute();
    });
  }

  await failStuckSwaps(db, deps.boss, storage);
}
