import { dashboardContract } from '@doppel/contract/dashboard';
import { listApiKeys } from '@doppel/core/accounts/api-keys';
import { dailyCreditsSpent, getBalances } from '@doppel/core/accounts/credits';
import { budgetUsage } from '@doppel/core/rate-limit/request-budget';
import { toPublicSwap } from '@doppel/core/tasks/public-swap';
import { dailySwapCounts, listScopedSwaps } from '@doppel/core/tasks/swaps';
import { tsRest } from '../routes/ts-rest';
import { sessionOf } from './session-guard';

const CHART_DAYS = 30;
const LATEST_SWAPS = 5;

/** The last `days` UTC dates, oldest first, as `YYYY-MM-DD`. */
function lastDays(days: number, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

export const overview = tsRest.route(dashboardContract.overview, async ({ request }) => {
  const { db, config } = request.server.deps;
  const { userId } = sessionOf(request);
  const liveKeys = (await listApiKeys(db, userId)).filter((k) => k.revoked_at === null);
  const [credits, usage, swapsByDay, creditsByDay, latest] = await Promise.all([
    getBalances(db, userId),
    budgetUsage(db, liveKeys.map((k) => k.id)),
    dailySwapCounts(db, userId, CHART_DAYS),
    dailyCreditsSpent(db, userId, CHART_DAYS),
    listScopedSwaps(db, { userId }, {}, { limit: LATEST_SWAPS, after: null }),
  ]);
  const { perMinute, perDay } = config.rateLimit;
  return {
    status: 200,
    body: {
      credits,
      budgets: liveKeys.map((k) => ({
        key_id: k.id,
        key_name: k.name,
        prefix: k.prefix,
        minute: { used: usage.get(k.id)?.minute ?? 0, limit: perMinute },
        today: { used: usage.get(k.id)?.today ?? 0, limit: perDay },
      })),
      daily: lastDays(CHART_DAYS).map((day) => ({ day, swaps: swapsByDay.get(day) ?? 0, credits: creditsByDay.get(day) ?? 0 })),
      latest_swaps: latest.rows.map(toPublicSwap),
    },
  };
});
