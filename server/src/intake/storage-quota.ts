import type { Kysely } from 'kysely';
import type { Database } from '@doppel/core/db/schema';
import { ApiError } from '@doppel/core/errors';
import { storedBytes } from '@doppel/core/storage/stored-files';

const GiB = 1024 ** 3;
const size = (bytes: number) => (bytes >= GiB ? `${(bytes / GiB).toFixed(1)} GiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`);

/**
 * The refusal of a create that would leave the user keeping `keptBytes`, past the quota:
 * `payload_too_large`, the spec's answer to bytes we will not take (see docs/decisions.md).
 */
export function overQuota(keptBytes: number, quotaBytes: number): ApiError {
  return new ApiError(
    'payload_too_large',
    `Storage quota: with these inputs this account would keep ${size(keptBytes)}, over its ${size(quotaBytes)}. ` +
      'Space frees as tasks end (their inputs are deleted) and as retention deletes old tasks.',
  );
}

/**
 * Refuses a create that would leave the user keeping `keptBytes`, past the quota. Given the
 * total that counting the create's files returned inside its transaction (recordStoredFiles),
 * the check is exact: two creates of one user cannot both take the last room.
 */
export function requireWithinQuota(keptBytes: number, quotaBytes: number): void {
  if (keptBytes > quotaBytes) throw overQuota(keptBytes, quotaBytes);
}

/** Refuses a create when the user's stored bytes, plus `adding`, would pass the quota; before fetching, a user with no room left. */
export async function requireStorageRoom(db: Kysely<Database>, userId: string, quotaBytes: number, adding: number): Promise<void> {
  requireWithinQuota((await storedBytes(db, userId)) + adding, quotaBytes);
}
