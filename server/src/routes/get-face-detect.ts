import { contract } from '@doppel/contract';
import { notFound } from '@doppel/core/errors';
import { findFaceDetectTaskQuery, toFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import { ReadWithSpend } from '../rate-limit/read-with-spend';
import { tsRest } from './ts-rest';

/** The face detection, read with the request's spend. */
export const getFaceDetectRead = new ReadWithSpend(contract.getFaceDetect, (request, caller, db) => {
  const params = contract.getFaceDetect.pathParams.safeParse(request.params);
  return params.success ? { query: findFaceDetectTaskQuery(db, caller.apiKeyId, params.data.taskId) } : undefined;
});

export const getFaceDetect = tsRest.route(contract.getFaceDetect, async ({ request }) => {
  const [task] = getFaceDetectRead.rowsOf(request);
  if (!task) throw notFound();
  return { status: 200, body: toFaceDetectTask(task) };
});
