import { DASHBOARD_API_PREFIX, dashboardContract } from '@doppel/contract/dashboard';
import { makeThumbnail } from '@doppel/engine/media';
import { thumbnailKey } from '@doppel/core/storage/keys';
import type { Storage } from '@doppel/core/storage/storage';
import { findUserFaceDetectTask, listUserFaceDetectTasks, toFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import { findUserSwap } from '@doppel/core/tasks/swaps';
import { tsRest } from '../routes/ts-rest';
import { notFound } from './errors';
import { sessionOf } from './session-guard';
import { FaceDetectTargetSchema, SwapInputKeysSchema, type StoredMedia } from './stored-inputs';

const FACE_DETECTIONS_SHOWN = 24;

/**
 * A preview of stored media: made from the media while it is kept, else the thumbnail kept in
 * its place once the task ended and its inputs were retired (jobs/retire-inputs.ts).
 */
async function previewOf(storage: Storage, media: StoredMedia, retired: string, boxes?: Parameters<typeof makeThumbnail>[2]): Promise<Buffer> {
  const bytes = await storage.get(media.key).catch(() => null);
  if (bytes) return makeThumbnail(bytes, media.kind, boxes);
  const kept = await storage.get(retired).catch(() => null);
  if (!kept) throw notFound('preview');
  return kept;
}

function sendImage(reply: { header(name: string, value: string): unknown }, image: Buffer) {
  // Previews are per user and behind a session: private, but stable for a while.
  reply.header('cache-control', 'private, max-age=300');
  return { status: 200 as const, body: image };
}

export const swapPreview = tsRest.route(dashboardContract.swapPreview, async ({ request, reply, params }) => {
  const { db, storage } = request.server.deps;
  const swap = await findUserSwap(db, sessionOf(request).userId, params.swapId);
  if (!swap) throw notFound('swap');
  const parsed = SwapInputKeysSchema.safeParse(swap.inputs);
  if (!parsed.success) throw notFound('preview');
  const inputs = parsed.data;
  const media: StoredMedia | undefined =
    params.role === 'target'
      ? inputs.target
      : params.role === 'source'
        ? inputs.sources[params.index]
        : swap.result_key
          ? { ...inputs.target, key: swap.result_key }
          : undefined;
  if (!media || (params.role !== 'source' && params.index !== 0)) throw notFound('preview');
  // Retired thumbnails are named as the swap job names its inputs: target, source1, source2, ...
  const retired = thumbnailKey(swap.id, params.role === 'source' ? `source${params.index + 1}` : params.role);
  return sendImage(reply, await previewOf(storage, media, retired));
});

export const listFaceDetections = tsRest.route(dashboardContract.listFaceDetections, async ({ request }) => {
  const rows = await listUserFaceDetectTasks(request.server.deps.db, sessionOf(request).userId, FACE_DETECTIONS_SHOWN);
  const data = rows.map((row) => {
    const task = toFaceDetectTask(row);
    return {
      id: task.task_id,
      status: task.status,
      faces: task.faces,
      error: task.error,
      created_at: row.created_at.toISOString(),
      preview: `${DASHBOARD_API_PREFIX}/face-detect/${row.id}/preview`,
    };
  });
  return { status: 200, body: { data } };
});

export const faceDetectPreview = tsRest.route(dashboardContract.faceDetectPreview, async ({ request, reply, params }) => {
  const { db, storage } = request.server.deps;
  const row = await findUserFaceDetectTask(db, sessionOf(request).userId, params.taskId);
  if (!row) throw notFound('face detection');
  const target = FaceDetectTargetSchema.safeParse(row.target).data;
  if (!target) throw notFound('preview');
  const boxes = (toFaceDetectTask(row).faces ?? []).map(({ index, bounding_box }) => ({ ...bounding_box, label: String(index) }));
  return sendImage(reply, await previewOf(storage, target, thumbnailKey(row.id, 'target'), { boxes }));
});
