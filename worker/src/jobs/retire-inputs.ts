import { makeThumbnail, type ThumbnailBox } from '@doppel/engine';
import type { Db } from '@doppel/core/db/connect';
import type { SwapRow } from '@doppel/core/db/schema';
import { readSwapInputs } from '@doppel/core/tasks/swaps';
import type { StoredInput, SwapInputs } from '@doppel/core/db/stored-inputs';
import { thumbnailKey } from '@doppel/core/storage/keys';
import type { Storage } from '@doppel/core/storage/storage';
import { deleteUserFiles, putUserFile } from '@doppel/core/storage/stored-files';

export interface RetiredInput extends StoredInput {
  /** Names the thumbnail: `target`, `source1`, ... */
  role: string;
  /** Face boxes drawn on the thumbnail (face detection's result). */
  boxes?: ThumbnailBox[];
}

/**
 * A task that has ended needs its inputs no more (a retry of the create replays the task, it
 * never re-reads them): each is replaced by a thumbnail, so the task can still be shown, and
 * deleted. Storage then holds, per task, its result and a few small JPEGs, not the uploads; the
 * user's stored bytes count the thumbnails instead of the inputs. An input already gone (retired
 * before) or that cannot be pictured is simply not thumbnailed.
 */
export async function retireInputs(
  db: Db,
  storage: Storage,
  task: { id: string; userId: string },
  inputs: RetiredInput[],
): Promise<void> {
  for (const input of inputs) {
    const bytes = await storage.get(input.key).catch(() => null);
    if (!bytes) continue;
    const thumbnail = await makeThumbnail(bytes, input.kind, { boxes: input.boxes }).catch(() => null);
    if (thumbnail) await putUserFile(db, storage, task.userId, { key: thumbnailKey(task.id, input.role), body: thumbnail, contentType: 'image/jpeg' });
  }
  await deleteUserFiles(db, storage, inputs.map((input) => input.key));
}

const ENDED: readonly SwapRow['status'][] = ['done', 'failed', 'canceled'];

/**
 * A swap's inputs retired once it has ended, however it ended (its job, a cancel, the dead-letter
 * handler, the maintenance sweep); nothing for a swap still running. Rows written by hand (an
 * operator's, a test's) may lack inputs: those that are there are retired.
 */
export async function retireSwapInputs(db: Db, storage: Storage, swapId: string): Promise<void> {
  const row = await readSwapInputs(db, swapId);
  if (!row || !ENDED.includes(row.status)) return;
  const { target, sources = [] }: Partial<SwapInputs> = row.inputs;
  await retireInputs(db, storage, { id: swapId, userId: row.user_id }, [
    ...(target ? [{ role: 'target', ...target }] : []),
    ...sources.map((source, i) => ({ role: `source${i + 1}`, ...source })),
  ]);
}
