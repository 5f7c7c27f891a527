import { sql, type Transaction } from 'kysely';
import { creditBuckets, type CreditBucket, type Database } from '../db/schema';

/**
 * Takes `cost` credits from the user's buckets in the documented order (subscription, then
 * monthly, then permanent), writing one ledger entry per bucket touched. The balance row is
 * locked for the rest of the transaction, so concurrent creates cannot overspend.
 * Returns false, changing nothing, when the balance is below the cost.
 */
export async function chargeCredits(
  trx: Transaction<Database>,
  userId: string,
  swapId: string,
  cost: number,
): Promise<boolean> {
  if (cost === 0) return true;
  const balance = await trx
    .selectFrom('credit_balances')
    .select(creditBuckets)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (creditBuckets.reduce((sum, bucket) => sum + balance[bucket], 0) < cost) return false;

  let remaining = cost;
  const taken: Partial<Record<CreditBucket, number>> = {};
  for (const bucket of creditBuckets) {
    const take = Math.min(balance[bucket], remaining);
    if (take > 0) taken[bucket] = take;
    remaining -= take;
  }
  await trx
    .updateTable('credit_balances')
    .set(Object.fromEntries(Object.entries(taken).map(([b, n]) => [b, sql`${sql.ref(b)} - ${n}`])))
    .where('user_id', '=', userId)
    .execute();
  await trx
    .insertInto('credit_ledger')
    .values(
      Object.entries(taken).map(([bucket, n]) => ({
        user_id: userId,
        swap_id: swapId,
        bucket: bucket as CreditBucket,
        amount: -n,
        reason: 'charge' as const,
      })),
    )
    .execute();
  return true;
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
