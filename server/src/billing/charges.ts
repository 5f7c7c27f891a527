import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Takes `cost` credits from the user's buckets in the documented order (subscription, then
 * monthly, then permanent, as in `creditBuckets`), writing one ledger entry per bucket touched,
 * in one statement. The balance row is locked for the rest of the transaction, so concurrent
 * creates cannot overspend: a create that waited for the lock takes from the balance as the
 * other one left it. Returns false, changing nothing, when the balance is below the cost.
 */
export async function chargeCredits(
  trx: Transaction<Database>,
  userId: string,
  swapId: string,
  cost: number,
): Promise<boolean> {
  if (cost === 0) return true;
  const charge = chargeSteps(userId, swapId, cost);
  const { rows } = await sql<{ charged: boolean }>`with ${charge.steps} select ${charge.covered} as charged`.execute(trx);
  return rows[0]!.charged;
}

/**
 * `chargeCredits` as common table expressions (named charge_*) for a statement that writes
 * more in the same round trip; `covered` is true when the charge was made. When it is false the
 * statement must be rolled back with its transaction, as whatever else it wrote is unpaid.
 */
export function chargeSteps(userId: string, swapId: string, cost: number): { steps: RawBuilder<unknown>; covered: RawBuilder<boolean> } {
  const steps = sql`
    charge_balance as (
      select subscription, monthly, permanent from credit_balances where user_id = ${userId} for update
    ),
    charge_taken as (
      select s, m, ${cost}::int - s - m as p
      from charge_balance,
        lateral (select least(subscription, ${cost}::int) as s) first,
        lateral (select least(monthly, ${cost}::int - s) as m) second
      where subscription + monthly + permanent >= ${cost}::int
    ),
    charge_update as (
      update credit_balances b
      set subscription = b.subscription - t.s, monthly = b.monthly - t.m, permanent = b.permanent - t.p
      from charge_taken t
      where b.user_id = ${userId}
    ),
    charge_ledger as (
      insert into credit_ledger (user_id, swap_id, bucket, amount, reason)
      select ${userId}, ${swapId}, v.bucket, -v.n, 'charge'
      from charge_taken t, lateral (values (1, 'subscription', t.s), (2, 'monthly', t.m), (3, 'permanent', t.p)) v(rank, bucket, n)
      where v.n > 0
      order by v.rank
    )`;
  // Nothing to take is always covered, whether or not the user has a balance row.
  return { steps, covered: sql<boolean>`(${cost}::int = 0 or exists (select 1 from charge_taken))` };
}

/**
 * Gives a swap's charge back to the buckets it came from. Safe to call more than once and from
 * several workers at a time: the swap's `refunded` flag is flipped in the caller's transaction,
 * and only the call that flips it refunds. Returns the credits refunded.
 */
export async function refundSwap(trx: Transaction<Database>, swapId: string): Promise<number> {
  const swap = await trx
    .updateTable('swaps')
    .set({ refunded: true })
    .where('id', '=', swapId)
    .where('refunded', '=', false)
    .returning('user_id')
    .executeTakeFirst();
  if (!swap) return 0;
  const charges = await trx
    .selectFrom('credit_ledger')
    .select(['bucket', (eb) => eb.fn.sum<number>('amount').as('amount')])
    .where('swap_id', '=', swapId)
    .where('reason', '=', 'charge')
    .groupBy('bucket')
    .execute();
  let total = 0;
  for (const { bucket, amount } of charges) {
    const back = -Number(amount);
    if (back <= 0) continue;
    total += back;
    await trx
      .updateTable('credit_balances')
      .set({ [bucket]: sql`${sql.ref(bucket)} + ${back}` })
      .where('user_id', '=', swap.user_id)
      .execute();
    await trx
      .insertInto('credit_ledger')
      .values({ user_id: swap.user_id, swap_id: swapId, bucket, amount: back, reason: 'refund' })
      .execute();
  }
  return total;
}
