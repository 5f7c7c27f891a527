import type { Kysely } from 'kysely';
import type { Database } from '@doppel/core/db/schema';
import { ApiError } from '@doppel/core/errors';
import { storedBytes } from '@doppel/core/storage/stored-files';

const GiB = 1024 ** 3;
const size = (bytes: number) => (bytes >= GiB ? `${(bytes / GiB).toFixed(1)} GiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`);

/**
 * Refuses a create when the user's stored bytes, plus `adding`, would pass the quota: with
 * `payload_too_large`, the spec's answer to bytes we will not take (see docs/decisions.md).
 * Inside the create's transaction, after its files are counted (`adding` 0), the check is exact:
 * the count's row stays locked until the transaction ends, so two creates of one user cannot
 * both take the last room.
 */
export async function requireStorageRoom(db: Kysely<Database>, userId: string, quotaBytes: number, adding: number): Promise<void> {
  const used = await storedBytes(db, userId);
  if (used + adding <= quotaBytes) return;
  throw new ApiError(
    'payload_too_large',
    `Storage quota: with these inputs this account would keep ${size(used + adding)}, over its ${size(quotaBytes)}. ` +
      'Space frees as tasks end (their inputs are deleted) and as retention deletes old tasks.',
  );
}
