import { countFailure, readBlock, throttledNetwork } from '@doppel/core/auth/auth-throttle';
import type { Db } from '@doppel/core/db/connect';
import { DashboardApiError } from './errors';

/** Failed sign-ins allowed per minute from one address, and against one account from anywhere. */
export const SIGN_IN_FAILURES_PER_ADDRESS = 10;
export const SIGN_IN_FAILURES_PER_ACCOUNT = 5;

// Counted in the API's failed-authentication windows, under names no client address can take.
const addressKey = (ip: string) => `dashboard-address:${throttledNetwork(ip)}`;
const accountKey = (email: string) => `dashboard-account:${email.toLowerCase()}`;

/** Refuses a sign-in before the password is checked once the address or the account is over budget. */
export async function refuseThrottledSignIn(db: Db, ip: string, email: string): Promise<void> {
  const blocks = await Promise.all([
    readBlock(db, addressKey(ip), SIGN_IN_FAILURES_PER_ADDRESS),
    readBlock(db, accountKey(email), SIGN_IN_FAILURES_PER_ACCOUNT),
  ]);
  const block = blocks.find((b) => b !== null);
  if (block) {
    throw new DashboardApiError('rate_limited', 'Too many failed sign-ins; wait a minute and try again.', {
      'retry-after': String(block.retryAfterSeconds),
    });
  }
}

export async function recordFailedSignIn(db: Db, ip: string, email: string): Promise<void> {
  await countFailure(db, addressKey(ip));
  await countFailure(db, accountKey(email));
}
