import { requireFfmpeg } from '@doppel/engine/media';
import type { ProcessRole } from '@doppel/core/process/run-process';
import { openCompute } from './jobs/compute';
import { startWorkers } from './jobs/start-workers';

/** The job workers, on the engine's thread pool, as a role of a Doppel process. */
export const workerRole: ProcessRole = {
  name: 'worker',
  // Content scans and renders of GIF and video read their frames with ffmpeg.
  check: requireFfmpeg,
  async start(context) {
    const compute = openCompute(context.config);
    const workers = await startWorkers({ ...context, compute });
    context.logger.info({ role: context.config.role }, 'job workers started');
    return {
      async stop(deadlines) {
        await workers.stop(deadlines.handBackJobsInMs());
        await compute.close();
      },
    };
  },
};
