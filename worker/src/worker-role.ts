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
    let stopping = false;
    // The models load while the workers start and wait for jobs, so the first scan and swap after a
    // start do not wait for them (a create's scan 1.4 s → 0.1 s). Should a load fail, the task
    // that needs the model loads it again and reports the failure.
    const started = performance.now();
    compute.warmUp().then(
      (threads) => context.logger.info({ threads, ms: Math.round(performance.now() - started) }, 'engine threads warm'),
      (error: unknown) => stopping || context.logger.warn({ err: error }, 'engine warm-up failed: models load on first use'),
    );
    const workers = await startWorkers({ ...context, compute });
    context.logger.info({ role: context.config.role }, 'job workers started');
    return {
      async stop(deadlines) {
        stopping = true;
        await workers.stop(deadlines.handBackJobsInMs());
        await compute.close();
      },
    };
  },
};
