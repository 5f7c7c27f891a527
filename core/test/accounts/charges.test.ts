import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances, grantCredits, ledgerTotals } from '../../src/accounts/credits';
import { createUser } from '../../src/accounts/users';
import { chargeCredits } from '../../src/accounts/credits';
import { migrateToLatest } from '../../src/db/migrate';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await migrateToLatest(database.db);
});
afterAll(() => database.close());

async function userWith(credits: { subscription?: number; monthly?: number; permanent?: number }): Promise<string> {
  const user = await createUser(database.db, { email: `charge-${Math.random().toString(36).slice(2)}@example.com` });
  for (const [bucket, amount] of Object.entries(credits)) {
    await grantCredits(database.db, user.id, bucket as 'subscription' | 'monthly' | 'permanent', amount);
  }
  return user.id;
}

const charge = (userId: string, cost: number, swapId = 'swp_test') =>
  database.db.transaction().execute((trx) => chargeCredits(trx, userId, swapId, cost));

describe('charging credits', () => {
  it('takes subscription credits first, then monthly, then permanent, with one ledger entry per bucket', async () => {
    const userId = await userWith({ subscription: 2, monthly: 1, permanent: 5 });
    expect(await charge(userId, 4, 'swp_order')).toBe(true);
    expect(await getBalances(database.db, userId)).toEqual({ subscription: 0, monthly: 0, permanent: 4, total: 4 });
    const entries = await database.db
      .selectFrom('credit_ledger')
      .select(['bucket', 'amount'])
      .where('swap_id', '=', 'swp_order')
      .orderBy('id')
      .execute();
    expect(entries).toEqual([
      { bucket: 'subscription', amount: -2 },
      { bucket: 'monthly', amount: -1 },
      { bucket: 'permanent', amount: -1 },
    ]);
  });

  it('touches only the buckets it needs', async () => {
    const userId = await userWith({ subscription: 5, permanent: 5 });
    expect(await charge(userId, 3, 'swp_one_bucket')).toBe(true);
    const entries = await database.db.selectFrom('credit_ledger').select(['bucket', 'amount']).where('swap_id', '=', 'swp_one_bucket').execute();
    expect(entries).toEqual([{ bucket: 'subscription', amount: -3 }]);
  });

  it('refuses a cost above the balance and changes nothing', async () => {
    const userId = await userWith({ monthly: 1, permanent: 1 });
    expect(await charge(userId, 3)).toBe(false);
    expect(await getBalances(database.db, userId)).toEqual({ subscription: 0, monthly: 1, permanent: 1, total: 2 });
    expect(await ledgerTotals(database.db, userId)).toEqual({ subscription: 0, monthly: 1, permanent: 1 });
  });

  it('never overspends when many charges race for the same balance', async () => {
    const userId = await userWith({ subscription: 1, permanent: 2 });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => charge(userId, 1, `swp_race_${i}`)));
    expect(results.filter(Boolean)).toHaveLength(3);
    expect(await getBalances(database.db, userId)).toEqual({ subscription: 0, monthly: 0, permanent: 0, total: 0 });
    expect(await ledgerTotals(database.db, userId)).toEqual({ subscription: 0, monthly: 0, permanent: 0 });
  });
});
