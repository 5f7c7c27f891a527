import { contract } from '@doppel/contract';
import { callerOf } from '../auth/authenticate';
import { notFound } from '@doppel/core/errors';
import { findFaceDetectTask, toFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import { tsRest } from './ts-rest';

export const getFaceDetect = tsRest.route(contract.getFaceDetect, async ({ request, params }) => {
  const task = await findFaceDetectTask(request.server.deps.db, callerOf(request).apiKeyId, params.taskId);
  if (!task) throw notFound();
  return { status: 200, body: toFaceDetectTask(task) };
});
