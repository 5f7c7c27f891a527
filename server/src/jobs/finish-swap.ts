import { sql } from 'kysely';
import type { PgBoss } from 'pg-boss';
import { refundSwap } from '../billing/charges';
import type { Db } from '../db/connect';
import type { SwapRow } from '../db/schema';
import { recordStoredFiles } from '../storage/stored-files';
import { enqueueWebhookEvent } from '../webhooks/events';

/**
 * The two ways a swap ends on the worker side. Each is one transaction: the status change, the
 * count of a result's bytes toward its user's storage, the refund of a failure, and the webhook
 * event commit together or not at all.
 */
export async function completeSwap(
  db: Db,
  boss: PgBoss,
  swapId: string,
  result: { url: string; key: string; bytes: number },
): Promise<SwapRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('swaps')
      .set({
        status: 'done',
        progress: 100,
        result_url: result.url,
        result_key: result.key,
        error: null,
        updated_at: sql<Date>`now()`,
        completed_at: sql<Date>`now()`,
      })
      .where('id', '=', swapId)
      .where('status', '=', 'processing')
      .returningAll()
      .executeTakeFirst();
    if (row) {
      await recordStoredFiles(trx, row.user_id, [{ key: result.key, bytes: result.bytes }]);
      await enqueueWebhookEvent(trx, boss, row);
    }
    return row;
  });
}

/** Fails a swap that has not ended yet, refunding its credits. */
export async function failSwap(db: Db, boss: PgBoss, swapId: string, error: string): Promise<SwapRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('swaps')
      .set({ status: 'failed', error, updated_at: sql<Date>`now()`, completed_at: sql<Date>`now()` })
      .where('id', '=', swapId)
      .where('status', 'in', ['queued', 'preparing', 'processing'])
      .returningAll()
      .executeTakeFirst();
    if (row) {
      await refundSwap(trx, swapId);
      await enqueueWebhookEvent(trx, boss, row);
    }
    return row;
  });
}
