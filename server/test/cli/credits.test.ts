import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances, grantCredits, ledgerTotals } from '@doppel/core/accounts/credits';
import { createUser } from '@doppel/core/accounts/users';
import { createTestDatabase, type TestDatabase } from '@doppel/core/testing/database';
import { cliFor } from '../support/run-cli';

let t: TestDatabase;
let doppel: ReturnType<typeof cliFor>;
beforeAll(async () => {
  t = await createTestDatabase();
  doppel = cliFor(t.url);
});
afterAll(() => t.close());

let emails = 0;
const newUser = async () => (await createUser(t.db, { email: `credits-${++emails}@example.com` })).id;

describe('doppel credits grant', () => {
  it('adds to each named bucket with a ledger grant and prints the new balances', async () => {
    const user = await newUser();
    const run = await doppel('credits', 'grant', '--user', user, '--bucket', 'monthly', '--amount', '40');
    expect(run).toEqual({
      exitCode: 0,
      stdout: `Granted 40 monthly credits to ${user}.\nsubscription  0\nmonthly       40\npermanent     0\ntotal         40\n`,
      stderr: '',
    });
    await doppel('credits', 'grant', '--user', user, '--bucket', 'permanent', '--amount', '7');
    await doppel('credits', 'grant', '--user', user, '--bucket', 'subscription', '--amount', '3');
    expect(await getBalances(t.db, user)).toEqual({ subscription: 3, monthly: 40, permanent: 7, total: 50 });
    expect(await ledgerTotals(t.db, user)).toEqual({ subscription: 3, monthly: 40, permanent: 7 });
    const reasons = await t.db.selectFrom('credit_ledger').select('reason').where('user_id', '=', user).execute();
    expect(reasons).toEqual([{ reason: 'grant' }, { reason: 'grant' }, { reason: 'grant' }]);
  });

  it('prints one JSON document under --json', async () => {
    const user = await newUser();
    const run = await doppel('credits', 'grant', '--user', user, '--bucket', 'permanent', '--amount', '5', '--json');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      user_id: user,
      granted: { bucket: 'permanent', amount: 5 },
      credits: { subscription: 0, monthly: 0, permanent: 5, total: 5 },
    });
  });

  const invalid: [string[], string][] = [
    [['--bucket', 'bonus', '--amount', '5'], "--bucket must be one of subscription, monthly, permanent, got 'bonus'"],
    [['--bucket', 'monthly', '--amount', '0'], "--amount must be a whole number from 1 to 2147483647, got '0'"],
    [['--bucket', 'monthly', '--amount=-3'], "--amount must be a whole number from 1 to 2147483647, got '-3'"],
    [['--bucket', 'monthly', '--amount', '1.5'], "--amount must be a whole number from 1 to 2147483647, got '1.5'"],
    [['--bucket', 'monthly', '--amount', 'ten'], "--amount must be a whole number from 1 to 2147483647, got 'ten'"],
    [['--amount', '5'], '--bucket is required'],
    [['--bucket', 'monthly'], '--amount is required'],
  ];
  for (const [args, message] of invalid) {
    it(`rejects ${args.join(' ')} as bad usage and grants nothing`, async () => {
      const user = await newUser();
      const run = await doppel('credits', 'grant', '--user', user, ...args);
      expect(run).toEqual({ exitCode: 2, stdout: '', stderr: `doppel: ${message}; see 'doppel credits grant --help'\n` });
      expect(await ledgerTotals(t.db, user)).toEqual({ subscription: 0, monthly: 0, permanent: 0 });
    });
  }

  it('fails for an unknown user, exit code 1', async () => {
    const run = await doppel('credits', 'grant', '--user', 'usr_nobody', '--bucket', 'monthly', '--amount', '5');
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: 'doppel: no user with id usr_nobody\n' });
  });

  it('refuses a grant that would overflow the bucket, changing nothing', async () => {
    const user = await newUser();
    await grantCredits(t.db, user, 'monthly', 2_147_483_000);
    const run = await doppel('credits', 'grant', '--user', user, '--bucket', 'monthly', '--amount', '1000');
    expect(run).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'doppel: the monthly balance would exceed 2147483647; nothing granted\n',
    });
    expect(await getBalances(t.db, user)).toMatchObject({ monthly: 2_147_483_000 });
    expect(await ledgerTotals(t.db, user)).toMatchObject({ monthly: 2_147_483_000 });
  });
});

describe('doppel credits show', () => {
  it("prints a user's balances by bucket, as text and as JSON", async () => {
    const user = await newUser();
    await grantCredits(t.db, user, 'subscription', 2);
    await grantCredits(t.db, user, 'permanent', 9);
    expect(await doppel('credits', 'show', '--user', user)).toEqual({
      exitCode: 0,
      stdout: 'subscription  2\nmonthly       0\npermanent     9\ntotal         11\n',
      stderr: '',
    });
    expect(JSON.parse((await doppel('credits', 'show', '--user', user, '--json')).stdout)).toEqual({
      user_id: user,
      credits: { subscription: 2, monthly: 0, permanent: 9, total: 11 },
    });
  });

  it('fails for an unknown user, exit code 1', async () => {
    expect(await doppel('credits', 'show', '--user', 'usr_nobody')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'doppel: no user with id usr_nobody\n',
    });
  });
});
