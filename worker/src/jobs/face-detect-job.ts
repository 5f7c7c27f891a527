import { EngineError, type FaceDescription, type ThumbnailBox } from '@doppel/engine';
import type { Job } from 'pg-boss';
import { ownerOfKey } from '@doppel/core/accounts/api-keys';
import type { Db } from '@doppel/core/db/connect';
import type { FaceDetectJob } from '@doppel/core/queue/payloads';
import { queues } from '@doppel/core/queue/boss';
import { finishFaceDetection, startFaceDetection } from '@doppel/core/tasks/face-detect-tasks';
import { retireInputs } from './retire-inputs';
import type { Storage } from '@doppel/core/storage/storage';

export interface FaceDetectDeps {
  db: Db;
  storage: Storage;
  detect(bytes: Buffer): Promise<FaceDescription>;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * queued -> processing -> done (with the faces in face order) or failed. A retry after a crash
 * finds the task in processing and runs it again; detection has no side effects. Once the task
 * has ended, the image is retired: a thumbnail with the boxes drawn on it stays.
 */
export async function runFaceDetectJob(deps: FaceDetectDeps, job: Job<FaceDetectJob>): Promise<void> {
  const task = await startFaceDetection(deps.db, job.data.taskId);
  if (!task) return;
  const finish = (outcome: Parameters<typeof finishFaceDetection>[2]) => finishFaceDetection(deps.db, task.id, outcome);

  const input = task.target;
  let boxes: ThumbnailBox[] = [];
  try {
    const description = await deps.detect(await deps.storage.get(input.key));
    const faces = description.faces.map(({ index, box }) => ({
      index,
      bounding_box: { x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height) },
    }));
    await finish({ status: 'done', faces });
    boxes = faces.map(({ index, bounding_box }) => ({ ...bounding_box, label: String(index) }));
  } catch (error) {
    if (error instanceof EngineError) await finish({ status: 'failed', error: error.message });
    else if (job.retryCount < queues.faceDetect.retryLimit) throw error;
    else await finish({ status: 'failed', error: 'Face detection failed on our side; please create a new task.' });
  }
  await retireInputs(deps.db, deps.storage, { id: task.id, userId: await ownerOfKey(deps.db, task.api_key_id) }, [{ role: 'target', ...input, boxes }]);
}
