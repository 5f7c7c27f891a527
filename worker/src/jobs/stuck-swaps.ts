import type { PgBoss } from 'pg-boss';
import type { Db } from '@doppel/core/db/connect';
import type { Storage } from '@doppel/core/storage/storage';
import { failSwap } from '@doppel/core/tasks/finish-swap';
import { findStuckSwapIds } from '@doppel/core/tasks/swaps';
import { retireSwapInputs } from './retire-inputs';
import { INTERNAL_FAILURE } from './swap-job';

/**
 * Swaps left unfinished with no job that could still finish them (the job was lost with a
 * crashed process's transaction, or deleted): nothing would ever move them on, and they would
 * hold a concurrent-create slot of their key forever. They fail and are refunded, with their
 * webhook, and their inputs are retired. A minute of grace covers a job between two of its states.
 */
export async function failStuckSwaps(db: Db, boss: PgBoss, storage: Storage): Promise<string[]> {
  const failed: string[] = [];
  for (const id of await findStuckSwapIds(db)) {
    if (!(await failSwap(db, boss, id, INTERNAL_FAILURE))) continue;
    await retireSwapInputs(db, storage, id);
    failed.push(id);
  }
  return failed;
}
