import type { DetectedFace } from '@doppel/contract';
import { EngineError, type FaceDescription, type ThumbnailBox } from '@doppel/worker';
import { sql } from 'kysely';
import type { Job } from 'pg-boss';
import { ownerOfKey } from '../accounts/api-keys';
import type { Db } from '../db/connect';
import type { FaceDetectJob } from '../queue/payloads';
import { queues } from '../queue/boss';
import { retireInputs } from './retire-inputs';
import type { Storage } from '../storage/storage';

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
  const task = await deps.db
    .updateTable('face_detect_tasks')
    .set({ status: 'processing' })
    .where('id', '=', job.data.taskId)
    .where('status', 'in', ['queued', 'processing'])
    .returning(['id', 'target', 'api_key_id'])
    .executeTakeFirst();
  if (!task) return;

  const finish = (values: { status: 'done' | 'failed'; faces?: DetectedFace[]; error?: string }) =>
    deps.db
      .updateTable('face_detect_tasks')
      .set({
        status: values.status,
        faces: values.faces ? JSON.stringify(values.faces) : null,
        faces_detected: values.faces?.length ?? null,
        error: values.error ?? null,
        completed_at: sql<Date>`now()`,
      })
      .where('id', '=', task.id)
      .where('status', '=', 'processing')
      .execute();

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
