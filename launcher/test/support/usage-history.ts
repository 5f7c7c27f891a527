import { sql } from 'kysely';
import { chargeCredits } from '@doppel/core/accounts/credits';
import type { Db } from '@doppel/core/db/connect';
import { insertSwap } from '@doppel/core/tasks/swaps';
import { swapRow } from '@doppel/server/testing/task-rows';
import type { TestAccount } from '@doppel/server/testing/app';

/**
 * Finished swaps of the last `days` days, charged through the real ledger and then dated back,
 * so the overview's 30-day chart has a history to draw. Counts follow a fixed pattern.
 */
export async function seedUsageHistory(db: Db, account: TestAccount, days = 29): Promise<void> {
  for (let daysAgo = days; daysAgo >= 1; daysAgo--) {
    const count = [2, 4, 3, 6, 5, 1, 0, 3, 7, 4][daysAgo % 10]!;
    for (let i = 0; i < count; i++) {
      const cost = 1 + ((daysAgo + i) % 3);
      const type = i % 4 === 3 ? 'gif' : 'image';
      await db.transaction().execute(async (trx) => {
        const swap = await insertSwap(trx, swapRow(account, { type, status: i % 5 === 4 ? 'failed' : 'done', credit_cost: cost }));
        await chargeCredits(trx, account.userId, swap.id, cost);
        // created_at is written once by the database; a seed is the one thing that may rewrite it.
        const at = sql`now() - make_interval(days => ${daysAgo}, hours => ${i})`;
        await sql`update swaps set created_at = ${at}, updated_at = ${at}, completed_at = ${at} where id = ${swap.id}`.execute(trx);
        await sql`update credit_ledger set created_at = ${at} where swap_id = ${swap.id}`.execute(trx);
      });
    }
  }
}
