import type { Db } from '@doppel/core/db/connect';
import { writeSwapProgress } from '@doppel/core/tasks/swaps';

/** Progress writes are spaced at least this far apart; the engine reports far more often. */
const MIN_INTERVAL_MS = 250;

/**
 * Turns the engine's progress callbacks into rising `progress` values on the swap row, at a
 * bounded rate. 100 is kept for `done`, which only completing the swap writes.
 */
export function progressWriter(db: Db, swapId: string): { report(percent: number): void; flush(): Promise<void> } {
  let written = 0;
  let wanted = 0;
  let lastWrite = 0;
  let pending: Promise<void> = Promise.resolve();

  const write = () => {
    if (wanted <= written) return;
    const value = wanted;
    written = value;
    lastWrite = Date.now();
    pending = pending.then(async () => {
      await writeSwapProgress(db, swapId, value)
        // Progress is advisory: a lost write must not fail the swap, the next one catches up.
        .catch(() => {});
    });
  };

  return {
    report(percent) {
      wanted = Math.max(wanted, Math.min(99, Math.floor(percent)));
      if (Date.now() - lastWrite >= MIN_INTERVAL_MS) write();
    },
    async flush() {
      write();
      await pending;
    },
  };
}
