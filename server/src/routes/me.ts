import { contract } from '@doppel/contract';
import { accountOf, accountQuery } from '@doppel/core/accounts/account';
import { WINDOW_SECONDS } from '@doppel/core/rate-limit/request-budget';
import { callerOf } from '../auth/authenticate';
import { ReadWithSpend } from '../rate-limit/read-with-spend';
import { tsRest } from './ts-rest';

/** The caller's account, read with the request's spend. */
export const meRead = new ReadWithSpend(contract.me, (_request, caller, db) => ({ query: accountQuery(db, caller.userId) }));

export const me = tsRest.route(contract.me, async ({ request }) => {
  const [row] = meRead.rowsOf(request);
  if (!row) throw new Error(`api key of missing user ${callerOf(request).userId}`);
  const { user, credits } = accountOf(row);
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
