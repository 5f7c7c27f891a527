import { PREPARED, type Db } from '../db/connect';
import type { UserRow } from '../db/schema';
import type { Balances } from './credits';

type AccountUser = Pick<UserRow, 'id' | 'email_verified' | 'subscription_tier'>;

export interface Account {
  user: AccountUser;
  credits: Balances;
}

/**
 * A user and their credit balances in one read, for GET /me, which reads it with the request's
 * spend (prepared: it runs on every one). Read-only: users.ts and credits.ts stay the only
 * writers of their tables. `accountOf` makes the account of its row.
 */
export function accountQuery(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .modifyFront(PREPARED)
    .leftJoin('credit_balances', 'credit_balances.user_id', 'users.id')
    .select(['users.id', 'users.email_verified', 'users.subscription_tier'])
    .select(['credit_balances.subscription', 'credit_balances.monthly', 'credit_balances.permanent'])
    .where('users.id', '=', userId);
}

type AccountRow = AccountUser & { subscription: number | null; monthly: number | null; permanent: number | null };

/** The account of accountQuery's row; a user without a balance row has none of each. */
export function accountOf(row: AccountRow): Account {
  const balances = { subscription: row.subscription ?? 0, monthly: row.monthly ?? 0, permanent: row.permanent ?? 0 };
  return {
    user: { id: row.id, email_verified: row.email_verified, subscription_tier: row.subscription_tier },
    credits: { ...balances, total: balances.subscription + balances.monthly + balances.permanent },
  };
}
