import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances, ledgerTotals } from '@doppel/core/accounts/credits';
import { createTestDatabase, type TestDatabase } from '@doppel/core/testing/database';
import { cliFor } from '../support/run-cli';

let t: TestDatabase;
let doppel: ReturnType<typeof cliFor>;
beforeAll(async () => {
  t = await createTestDatabase();
  doppel = cliFor(t.url);
});
afterAll(() => t.close());

const usersWithEmail = (email: string) => t.db.selectFrom('users').selectAll().where('email', '=', email).execute();

describe('doppel users create', () => {
  it('creates a free-tier user with no credits and prints its id first', async () => {
    const run = await doppel('users', 'create', '--email', 'ada@example.com');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    const [user] = await usersWithEmail('ada@example.com');
    expect(user).toMatchObject({ subscription_tier: 'free', email_verified: false });
    expect(run.stdout.split('\n')[0]).toBe(`id                    ${user!.id}`);
    expect(run.stdout).toContain('tier                  free\n');
    expect(run.stdout).toContain('credits total         0\n');
    expect(await getBalances(t.db, user!.id)).toEqual({ subscription: 0, monthly: 0, permanent: 0, total: 0 });
  });

  it('grants --credits to the permanent bucket through the ledger, and sets --tier', async () => {
    const run = await doppel('users', 'create', '--email', 'grace@example.com', '--tier', 'pro', '--credits', '250', '--json');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    const printed = JSON.parse(run.stdout);
    expect(printed).toEqual({
      id: expect.stringMatching(/^usr_[A-Za-z0-9_-]+$/),
      email: 'grace@example.com',
      subscription_tier: 'pro',
      email_verified: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      credits: { subscription: 0, monthly: 0, permanent: 250, total: 250 },
    });
    expect(await ledgerTotals(t.db, printed.id)).toEqual({ subscription: 0, monthly: 0, permanent: 250 });
    const [user] = await usersWithEmail('grace@example.com');
    expect(user).toMatchObject({ id: printed.id, subscription_tier: 'pro' });
  });

  it('refuses a second user with the same email, exit code 1', async () => {
    await doppel('users', 'create', '--email', 'twice@example.com');
    const run = await doppel('users', 'create', '--email', 'twice@example.com');
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: 'doppel: a user with email twice@example.com already exists\n' });
    expect(await usersWithEmail('twice@example.com')).toHaveLength(1);
  });

  const invalid: [string[], string][] = [
    [['--email', 'not-an-email'], "--email must look like name@example.com, got 'not-an-email'"],
    [['--email', 'a b@example.com'], "--email must look like name@example.com, got 'a b@example.com'"],
    [['--tier', 'Gold Plan'], "--tier must be 1-32 lowercase letters, digits, '-' or '_', got 'Gold Plan'"],
    [['--credits', '0'], "--credits must be a whole number from 1 to 2147483647, got '0'"],
    [['--credits=-5'], "--credits must be a whole number from 1 to 2147483647, got '-5'"],
    [['--credits', '1e3'], "--credits must be a whole number from 1 to 2147483647, got '1e3'"],
    [['--credits', '2147483648'], "--credits must be a whole number from 1 to 2147483647, got '2147483648'"],
  ];
  for (const [args, message] of invalid) {
    it(`rejects ${args.join(' ')} as bad usage and creates nobody`, async () => {
      const email = args[0] === '--email' ? args[1]! : 'valid@example.com';
      const run = await doppel('users', 'create', ...(args[0] === '--email' ? args : ['--email', email, ...args]));
      expect(run).toEqual({ exitCode: 2, stdout: '', stderr: `doppel: ${message}; see 'doppel users create --help'\n` });
      expect(await usersWithEmail(email)).toHaveLength(0);
    });
  }
});

describe('doppel users show', () => {
  it('finds a user by email and prints it as users create did, credits included', async () => {
    const created = JSON.parse((await doppel('users', 'create', '--email', 'lost@example.com', '--credits', '40', '--json')).stdout);
    const json = await doppel('users', 'show', '--email', 'lost@example.com', '--json');
    expect(json).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(json.stdout)).toEqual(created);

    const text = await doppel('users', 'show', '--email', 'lost@example.com');
    expect(text).toMatchObject({ exitCode: 0, stderr: '' });
    expect(text.stdout.split('\n')[0]).toBe(`id                    ${created.id}`);
    expect(text.stdout).toContain('credits permanent     40\n');
  });

  it('fails with exit code 1 for an email no user has, matching the email exactly', async () => {
    await doppel('users', 'create', '--email', 'exact@example.com');
    const run = await doppel('users', 'show', '--email', 'Exact@example.com');
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: 'doppel: no user with email Exact@example.com\n' });
  });

  it('rejects a malformed email as bad usage', async () => {
    const run = await doppel('users', 'show', '--email', 'nobody');
    expect(run).toEqual({ exitCode: 2, stdout: '', stderr: "doppel: --email must look like name@example.com, got 'nobody'; see 'doppel users show --help'\n" });
  });
});

describe('doppel users invite', () => {
  it('prints a one-time dashboard link valid for 24 hours, and asking again replaces it', async () => {
    await doppel('users', 'create', '--email', 'invitee@example.com');
    const first = await doppel('users', 'invite', '--email', 'invitee@example.com', '--json');
    expect(first.exitCode).toBe(0);
    const printed = JSON.parse(first.stdout);
    expect(printed).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost:8080\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/),
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const hoursLeft = (Date.parse(printed.expires_at) - Date.now()) / 3600_000;
    expect(hoursLeft).toBeGreaterThan(23.9);
    expect(hoursLeft).toBeLessThanOrEqual(24);
    expect(first.stderr).toContain('It works once.');

    const second = await doppel('users', 'invite', '--email', 'invitee@example.com');
    expect(second.stdout).toMatch(/^url +http:\/\/localhost:8080\/dashboard\/invite\/\S+\n/);
    expect(second.stdout).not.toContain(printed.url);
    expect(await t.db.selectFrom('dashboard_invites').selectAll().execute()).toHaveLength(1);
  });

  it('fails with exit code 1 for an email no user has', async () => {
    const run = await doppel('users', 'invite', '--email', 'stranger@example.com');
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: 'doppel: no user with email stranger@example.com\n' });
  });
});
