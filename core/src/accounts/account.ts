import { PREPARED, type Db } from '../db/connect';
import type { UserRow } from '../db/schema';
import type { Balances } from './credits';

type AccountUser = Pick<UserRow, 'id' | 'email_verified' | 'subscription_tier'>;

/**
 * A user and their credit balances in one read, for GET /me (prepared: it runs on every one).
 * Read-only: users.ts and credits.ts stay the only writers of their tables.
 */
export async function findAccount(db: Db, userId: string): Promise<{ user: AccountUser; credits: Balances } | undefined> {
  const row = await db
    .selectFrom('users')
    .modifyFront(PREPARED)
    .leftJoin('credit_balances', 'credit_balances.user_id', 'users.id')
    .select(['users.id', 'users.email_verified', 'users.subscription_tier'])
    .select(['credit_balances.subscription', 'credit_balances.monthly', 'credit_balances.permanent'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { subscription, monthly, permanent, ...user } = row;
  const balances = { subscription: subscription ?? 0, monthly: monthly ?? 0, permanent: permanent ?? 0 };
  return { user, credits: { ...balances, total: balances.subscription + balances.monthly + balances.permanent } };
}
