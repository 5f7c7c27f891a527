import type { Config } from '@doppel/core/config';
import type { Db } from '@doppel/core/db/connect';
import type { SwapInputs } from '@doppel/core/db/stored-inputs';
import { pruneAuthFailures } from '@doppel/core/auth/auth-throttle';
import { deleteOrphanedReservations } from '@doppel/core/intake/concurrency';
import { pruneIdempotencyKeys } from '@doppel/core/intake/idempotency';
import { thumbnailKey } from '@doppel/core/storage/keys';
import type { Storage } from '@doppel/core/storage/storage';
import { pruneUnusedScans } from '@doppel/core/scans/content-scans';
import { forgetStoredFiles } from '@doppel/core/storage/stored-files';
import { deleteFaceDetectTasks, endedFaceDetectionsOlderThan } from '@doppel/core/tasks/face-detect-tasks';
import { deleteSwaps, endedSwapsOlderThan } from '@doppel/core/tasks/swaps';
import type { PgBoss } from 'pg-boss';
import { pruneIdleBudgets } from '@doppel/core/rate-limit/request-budget';
import { failLostScans } from './lost-scans';
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
 * windows of failed authentications, content-scan verdicts no create has used for the retention
 * period and scans whose job is lost, tasks older than it with their stored files (a task
 * removed here answers not_found like any unknown id), and swaps that no job will ever finish.
 */
export async function runMaintenance(deps: { db: Db; storage: Storage; config: Config; boss: PgBoss }): Promise<void> {
  const { db, storage, config } = deps;
  await pruneIdempotencyKeys(db, config.idempotencyRetentionHours);
  await deleteOrphanedReservations(db);
  await pruneIdleBudgets(db);
  await pruneAuthFailures(db);
  await pruneUnusedScans(db, config.retentionDays);
  await failLostScans(db, storage);

  for (;;) {
    const swaps = await endedSwapsOlderThan(db, config.retentionDays, RETENTION_BATCH);
    if (swaps.length === 0) break;
    const keys = swaps.flatMap((swap) => [...storedKeys(swap.id, swap.inputs), ...(swap.result_key ? [swap.result_key] : [])]);
    await storage.delete(keys);
    // Their bytes stop counting with the rows.
    await db.transaction().execute(async (trx) => {
      await forgetStoredFiles(trx, keys);
      await deleteSwaps(trx, swaps.map((swap) => swap.id));
    });
  }

  for (;;) {
    const detections = await endedFaceDetectionsOlderThan(db, config.retentionDays, RETENTION_BATCH);
    if (detections.length === 0) break;
    const keys = detections.flatMap((task) => storedKeys(task.id, { target: task.target }));
    await storage.delete(keys);
    await db.transaction().execute(async (trx) => {
      await forgetStoredFiles(trx, keys);
      await deleteFaceDetectTasks(trx, detections.map((task) => task.id));
    });
  }

  await failStuckSwaps(db, deps.boss, storage);
}
