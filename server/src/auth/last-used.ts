import { markKeysUsed } from '@doppel/core/accounts/api-keys';
import type { Db } from '@doppel/core/db/connect';

/** `last_used_at` is as fresh as this: keys used meanwhile are stamped together, once a period. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Batches `last_used_at` so that a request costs no write: keys used since the last flush are
 * stamped in one statement every LAST_USED_RESOLUTION_MS, and once more on close.
 */
export class LastUsedRecorder {
  private used = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), LAST_USED_RESOLUTION_MS).unref();
  }

  touch(apiKeyId: string): void {
    this.used.add(apiKeyId);
  }

  async flush(): Promise<void> {
    const ids = [...this.used];
    this.used = new Set();
    await markKeysUsed(this.db, ids).catch(this.onError);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
