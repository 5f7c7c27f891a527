import { contract } from '@doppel/contract';
import { callerOf } from '../auth/authenticate';
import { findAccount } from '@doppel/core/accounts/account';
import { WINDOW_SECONDS } from '@doppel/core/rate-limit/request-budget';
import { tsRest } from './ts-rest';

export const me = tsRest.route(contract.me, async ({ request }) => {
  const { db } = request.server.deps;
  const { userId } = callerOf(request);
  const account = await findAccount(db, userId);
  if (!account) throw new Error(`api key of missing user ${userId}`);
  const { user, credits } = account;
  const budget = request.rateLimit!;
  return {
    status: 200,
    body: {
      user_id: user.id,
      email_verified: user.email_verified,
      subscription_tier: user.subscription_tier,
      credits,
      rate_limit: { limit: budget.limit, window_seconds: WINDOW_SECONDS, remaining: budget.remaining },
    },
  };
});
