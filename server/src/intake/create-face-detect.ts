import type { Caller } from '../auth/authenticate';
import type { Config } from '@doppel/core/config';
import type { Db } from '@doppel/core/db/connect';
import { newId } from '@doppel/core/ids';
import type { FetchGuard } from '@doppel/core/media/fetch-guard';
import { fetchMedia } from '../media/intake';
import { FACE_DETECT_MEDIA } from '@doppel/core/media/sniff';
import { queues, sendJob } from '@doppel/core/queue/boss';
import type { PgBoss } from 'pg-boss';
import { inputKey } from '@doppel/core/storage/keys';
import { recordStoredFiles } from '@doppel/core/storage/stored-files';
import type { Storage } from '@doppel/core/storage/storage';
import type { StoredInput } from '@doppel/core/db/stored-inputs';
import { insertFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import type { IntakeBudget, IntakeShare } from './intake-budget';
import { measureMedia } from './measure';
import { requireStorageRoom, requireWithinQuota } from './storage-quota';

export interface CreateFaceDetectDeps {
  db: Db;
  boss: PgBoss;
  storage: Storage;
  guard: FetchGuard;
  config: Config;
  intakeBudget: IntakeBudget;
}

/**
 * POST /face-detect behind the route: the image is fetched through the same guard as swap
 * media (within the process's intake budget), held to the engine's pixel limit by its header,
 * and copied to storage within the user's storage quota; the task row, its job and the count of
 * its stored file are written in one transaction, so a failed queue insert leaves no task behind.
 */
export async function createFaceDetectTask(
  deps: CreateFaceDetectDeps,
  caller: Caller,
  targetUrl: string,
  signal?: AbortSignal,
): Promise<string> {
  // Free, and so the cheapest way to fill storage: held to the user's quota like a swap.
  await requireStorageRoom(deps.db, caller.userId, deps.config.storageQuotaBytes, 1);
  const share = deps.intakeBudget.open();
  try {
    return await storeFaceDetectTask(deps, caller, targetUrl, share, signal);
  } finally {
    share.release();
  }
}

async function storeFaceDetectTask(
  deps: CreateFaceDetectDeps,
  caller: Caller,
  targetUrl: string,
  share: IntakeShare,
  signal?: AbortSignal,
): Promise<string> {
  const media = await fetchMedia({
    url: targetUrl,
    role: 'target',
    allowed: FACE_DETECT_MEDIA,
    maxBytes: deps.config.media.maxBytes.image,
    guard: deps.guard,
    timeoutMs: deps.config.media.fetchTimeoutMs,
    signal,
    share,
  });
  await measureMedia('target_url', media.kind, media.bytes);
  const taskId = newId('fdt');
  const key = inputKey(taskId, 'target', media.kind);
  await deps.storage.put(key, media.bytes, media.mimeType);
  try {
    await deps.db.transaction().execute(async (trx) => {
      requireWithinQuota(await recordStoredFiles(trx, caller.userId, [{ key, bytes: media.bytes.length }]), deps.config.storageQuotaBytes);
      const target: StoredInput = { key, kind: media.kind, mimeType: media.mimeType };
      await insertFaceDetectTask(trx, { id: taskId, api_key_id: caller.apiKeyId, status: 'queued', target: JSON.stringify(target) });
      await sendJob(deps.boss, trx, queues.faceDetect.name, { taskId });
    });
  } catch (error) {
    await deps.storage.delete([key]).catch(() => {});
    throw error;
  }
  return taskId;
}
