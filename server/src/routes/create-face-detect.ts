import { API_PREFIX, contract } from '@doppel/contract';
import { callerOf } from '../auth/authenticate';
import { createFaceDetectTask } from '../intake/create-face-detect';
import { tsRest } from './ts-rest';

export const createFaceDetect = tsRest.route(contract.createFaceDetect, async ({ request, body }) => {
  const taskId = await createFaceDetectTask(request.server.deps, callerOf(request), body.target_url);
  return {
    status: 202,
    body: {
      task_id: taskId,
      status: 'queued' as const,
      poll_url: `${API_PREFIX}/face-detect/${taskId}`,
      note: 'Detection runs asynchronously; poll poll_url until status is done or failed.',
    },
  };
});
