import { cancelableSwapStatuses } from '@doppel/contract';
import { sql } from 'kysely';
import { refundSwap } from '../billing/charges';
import { PREPARED, type Db } from '../db/connect';
import type { NewSwap, SwapRow } from '../db/schema';
import { PUBLIC_SWAP_COLUMNS, type PublicSwapRow } from './public-swap';

export async function insertSwap(db: Db, swap: NewSwap): Promise<SwapRow> {
  return db.insertInto('swaps').values(swap).returningAll().executeTakeFirstOrThrow();
}

/**
 * The swap with this id if the key created it, as far as it is shown; another key's swap is as
 * absent as a missing one. Prepared: GET /swaps/{id} runs nothing else.
 */
export function findSwap(db: Db, apiKeyId: string, id: string): Promise<PublicSwapRow | undefined> {
  return db
    .selectFrom('swaps')
    .modifyFront(PREPARED)
    .select(PUBLIC_SWAP_COLUMNS)
    .where('id', '=', id)
    .where('api_key_id', '=', apiKeyId)
    .executeTakeFirst();
}

/** The swap with this id if one of the user's keys created it (dashboard). */
export function findUserSwap(db: Db, userId: string, id: string): Promise<SwapRow | undefined> {
  return db.selectFrom('swaps').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Swaps created per UTC day over the last `days` days (today included), by `YYYY-MM-DD`. */
export async function dailySwapCounts(db: Db, userId: string, days: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('swaps')
    .select([sql<string>`to_char(created_at at time zone 'utc', 'YYYY-MM-DD')`.as('day'), (eb) => eb.fn.countAll<string>().as('count')])
    .where('user_id', '=', userId)
    .where('created_at', '>=', sql<Date>`date_trunc('day', now() at time zone 'utc') at time zone 'utc' - make_interval(days => ${days - 1})`)
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.count)]));
}

/**
 * Spec 3.1: one guarded UPDATE moves a queued or preparing swap to canceled; whatever the
 * status filter does not match (processing, or already terminal) is returned unchanged. The
 * guard makes the cancel and a worker's pick-up mutually exclusive without locks.
 */
export async function cancelSwap(db: Db, apiKeyId: string, id: string): Promise<PublicSwapRow | undefined> {
  const canceled = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('swaps')
      .set({ status: 'canceled', updated_at: sql<Date>`now()`, completed_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('api_key_id', '=', apiKeyId)
      .where('status', 'in', cancelableSwapStatuses)
      .returningAll()
      .executeTakeFirst();
    // A canceled swap never ran: its credits go back with the status change.
    if (row) await refundSwap(trx, row.id);
    return row;
  });
  return canceled ?? findSwap(db, apiKeyId, id);
}

/** Worker pick-up: queued -> preparing, or null when the swap is no longer queued (e.g. canceled). */
export function claimSwap(db: Db, id: string): Promise<SwapRow | null> {
  return advance(db, id, 'queued', 'preparing');
}

/**
 * Worker start: preparing -> processing, or null when the swap left preparing (canceled). Past
 * this point a cancel no longer applies.
 */
export function startSwapProcessing(db: Db, id: string): Promise<SwapRow | null> {
  return advance(db, id, 'preparing', 'processing');
}

async function advance(db: Db, id: string, from: SwapRow['status'], to: SwapRow['status']): Promise<SwapRow | null> {
  const row = await db
    .updateTable('swaps')
    .set({ status: to, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}
