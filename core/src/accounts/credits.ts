import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/connect';
import { creditBuckets, type CreditBucket, type Database } from '../db/schema';

export type Balances = Record<CreditBucket, number> & { total: number };

/** A new user's balance row, all buckets at zero (in the transaction creating the user). */
export async function openBalances(trx: Transaction<Database>, userId: string): Promise<void> {
  await trx.insertInto('credit_balances').values({ user_id: userId }).execute();
}

export async function getBalances(db: Db, userId: string): Promise<Balances> {
  const row = await db
    .selectFrom('credit_balances')
    .select(creditBuckets)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const balances = { subscription: row?.subscription ?? 0, monthly: row?.monthly ?? 0, permanent: row?.permanent ?? 0 };
  return { ...balances, total: balances.subscription + balances.monthly + balances.permanent };
}

/** Adds credits to one bucket, with its ledger entry, in one transaction. */
export async function grantCredits(db: Db, userId: string, bucket: CreditBucket, amount: number): Promise<Balances> {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError('amount must be a positive whole number');
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('credit_balances')
      .set({ [bucket]: sql`${sql.ref(bucket)} + ${amount}` })
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw new RangeError(`no user ${userId}`);
    await trx.insertInto('credit_ledger').values({ user_id: userId, swap_id: null, bucket, amount, reason: 'grant' }).execute();
  });
  return getBalances(db, userId);
}

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
 * Gives a swap's charge back to the buckets it came from, with a ledger entry per bucket. The
 * caller makes sure it happens once (`refundSwap` in tasks/finish-swap.ts). Returns the credits
 * refunded.
 */
export async function returnCharge(trx: Transaction<Database>, userId: string, swapId: string): Promise<number> {
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
      .where('user_id', '=', userId)
      .execute();
    await trx
      .insertInto('credit_ledger')
      .values({ user_id: userId, swap_id: swapId, bucket, amount: back, reason: 'refund' })
      .execute();
  }
  return total;
}

/** Sums the ledger by bucket; equal to the balances whenever the books are right. */
export async function ledgerTotals(db: Db, userId: string): Promise<Record<CreditBucket, number>> {
  const rows = await db
    .selectFrom('credit_ledger')
    .select(['bucket', (eb) => eb.fn.sum<number>('amount').as('sum')])
    .where('user_id', '=', userId)
    .groupBy('bucket')
    .execute();
  const totals = { subscription: 0, monthly: 0, permanent: 0 };
  for (const row of rows) totals[row.bucket] = Number(row.sum);
  return totals;
}

/**
 * Credits spent per UTC day over the last `days` days (today included): charges less refunds,
 * by `YYYY-MM-DD`.
 */
export async function dailyCreditsSpent(db: Db, userId: string, days: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('credit_ledger')
    .select([sql<string>`to_char(created_at at time zone 'utc', 'YYYY-MM-DD')`.as('day'), (eb) => eb.fn.sum<string>('amount').as('sum')])
    .where('user_id', '=', userId)
    .where('reason', 'in', ['charge', 'refund'])
    .where('created_at', '>=', sql<Date>`date_trunc('day', now() at time zone 'utc') at time zone 'utc' - make_interval(days => ${days - 1})`)
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [r.day, -Number(r.sum)]));
}
