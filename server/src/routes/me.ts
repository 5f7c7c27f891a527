import { contract } from '@doppel/contract';
import { callerOf } from '../auth/authenticate';
import { getBalances } from '../accounts/credits';
import { findUser } from '../accounts/users';
import { WINDOW_SECONDS } from '../rate-limit/request-budget';
import { tsRest } from './ts-rest';

export const me = tsRest.route(contract.me, async ({ request }) => {
  const { db } = request.server.deps;
  const { userId } = callerOf(request);
  const [user, credits] = await Promise.all([findUser(db, userId), getBalances(db, userId)]);
  if (!user) throw new Error(`api key of missing user ${userId}`);
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
