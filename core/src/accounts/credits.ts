import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { creditBuckets, type CreditBucket } from '../db/schema';

export type Balances = Record<CreditBucket, number> & { total: number };

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
