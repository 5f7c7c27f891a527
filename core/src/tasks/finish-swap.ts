import type { Transaction } from 'kysely';
import type { PgBoss } from 'pg-boss';
import { returnCharge } from '../accounts/credits';
import type { Db } from '../db/connect';
import type { Database, SwapRow } from '../db/schema';
import { recordStoredFiles } from '../storage/stored-files';
import { enqueueWebhookEvent } from '../webhooks/events';
import type { PublicSwapRow } from './public-swap';
import { findSwap, markSwapCanceled, markSwapDone, markSwapFailed, markSwapRefunded } from './swaps';

/**
 * The ways a swap ends: done or failed on the worker side, canceled by its key. Each is one
 * transaction: the status change, the count of a result's bytes toward its user's storage, the
 * refund of a failure or cancel, and the webhook event commit together or not at all.
 */
export async function completeSwap(
  db: Db,
  boss: PgBoss,
  swapId: string,
  result: { url: string; key: string; bytes: number },
): Promise<SwapRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await markSwapDone(trx, swapId, result);
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
    const row = await markSwapFailed(trx, swapId, error);
    if (row) {
      await refundSwap(trx, swapId);
      await enqueueWebhookEvent(trx, boss, row);
    }
    return row;
  });
}

/**
 * Spec 3.1: a queued or preparing swap is canceled and refunded (it never ran); any other is
 * returned unchanged, as is the answer for a processing or ended one.
 */
export async function cancelSwap(db: Db, apiKeyId: string, id: string): Promise<PublicSwapRow | undefined> {
  const canceled = await db.transaction().execute(async (trx) => {
    const row = await markSwapCanceled(trx, apiKeyId, id);
    if (row) await refundSwap(trx, row.id);
    return row;
  });
  return canceled ?? findSwap(db, apiKeyId, id);
}

/**
 * Gives a swap's charge back to the buckets it came from. Safe to call more than once and from
 * several workers at a time: the swap's `refunded` flag is flipped in the caller's transaction,
 * and only the call that flips it refunds. Returns the credits refunded.
 */
export async function refundSwap(trx: Transaction<Database>, swapId: string): Promise<number> {
  const swap = await markSwapRefunded(trx, swapId);
  return swap ? returnCharge(trx, swap.user_id, swapId) : 0;
}
