import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits, getBalances, ledgerTotals } from '../src/accounts/credits';
import { createUser } from '../src/accounts/users';
import { isMigrated } from '../src/db/migrate';
import { createTestDatabase, type TestDatabase } from './support/database';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.close());

describe('the test database', () => {
  it('is a migrated clone of its own', async () => {
    expect(await isMigrated(t.db)).toBe(true);
  });

  it('keeps credit balances equal to the ledger', async () => {
    const user = await createUser(t.db, { email: 'ledger@example.com' });
    await grantCredits(t.db, user.id, 'monthly', 5);
    await grantCredits(t.db, user.id, 'permanent', 7);
    const balances = await getBalances(t.db, user.id);
    expect(balances).toEqual({ subscription: 0, monthly: 5, permanent: 7, total: 12 });
    expect(await ledgerTotals(t.db, user.id)).toEqual({ subscription: 0, monthly: 5, permanent: 7 });
  });
});
