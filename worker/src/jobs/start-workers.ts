import type { Job, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { KeyVault } from '@doppel/core/keys/key-vault';
import type { Config } from '@doppel/core/config';
import type { Db } from '@doppel/core/db/connect';
import type { FetchGuard } from '@doppel/core/media/fetch-guard';
import { queues, type QueueName } from '@doppel/core/queue/boss';
import { rendersPerUser } from '@doppel/core/queue/render-groups';
import type { QueuePayloads } from '@doppel/core/queue/payloads';
import type { Storage } from '@doppel/core/storage/storage';
import { failFaceDetection } from '@doppel/core/tasks/face-detect-tasks';
import { registerWebhookWorker } from '../webhooks/webhook-worker';
import { runContentScanJob, type ContentScanDeps } from './content-scan-job';
import { runFaceDetectJob, type FaceDetectDeps } from './face-detect-job';
import { failSwap } from '@doppel/core/tasks/finish-swap';
import { MAINTENANCE_SCHEDULE, runMaintenance } from './maintenance-job';
import { INTERNAL_FAILURE, runSwapJob, type SwapDeps } from './swap-job';
import { retireSwapInputs } from './retire-inputs';

export interface WorkerDeps {
  config: Config;
  db: Db;
  vault: KeyVault;
  boss: PgBoss;
  storage: Storage;
  guard: FetchGuard;
  logger: Logger;
  /** The engine. Queues whose work it cannot do are left to other processes. */
  compute: Pick<ContentScanDeps, 'scan'> & Partial<Pick<FaceDetectDeps, 'detect'> & Pick<SwapDeps, 'engine'>>;
}

export interface Workers {
  /**
   * Stops taking jobs and waits for the running ones to finish, for at most `graceMs`. Jobs still
   * running then are handed back to the queue when the queue stops (Services.close).
   */
  stop(graceMs?: number): Promise<void>;
}

/** Consumes every queue in this process. CPU work goes to the compute pool, off the event loop. */
export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const { boss, logger } = deps;
  const names: QueueName[] = [];

  async function consume<Queue extends QueueName>(
    queue: Queue,
    concurrency: number,
    handler: (job: Job<QueuePayloads[Queue]>) => Promise<void>,
    perGroup?: number,
  ) {
    const options = { localConcurrency: concurrency, pollingIntervalSeconds: 1, ...(perGroup ? { localGroupConcurrency: perGroup } : {}) };
    await boss.work<QueuePayloads[Queue]>(queue, options, async (jobs) => {
      for (const job of jobs) {
        try {
          await handler(job);
          // One line per job done, naming the process (pid) that did it.
          logger.info({ queue, job_id: job.id }, 'job finished');
        } catch (error) {
          logger.error({ err: error, queue, job_id: job.id }, 'job failed');
          throw error;
        }
      }
    });
    names.push(queue);
  }

  const cpuSlots = deps.config.workerConcurrency ?? 2;
  await consume(queues.contentScan.name, cpuSlots, (job) =>
    runContentScanJob({ db: deps.db, storage: deps.storage, scan: deps.compute.scan }, job),
  );
  const { detect, engine } = deps.compute;
  if (detect) {
    await consume(queues.faceDetect.name, cpuSlots, (job) =>
      runFaceDetectJob({ db: deps.db, storage: deps.storage, detect }, job),
    );
    await consume(queues.faceDetectDead.name, 1, async (job) => {
      await failFaceDetection(deps.db, job.data.taskId, 'Face detection failed on our side; please create a new task.');
    });
  }
  if (engine) {
    // A user's long renders hold at most half of the slots (counted in this process, like webhook
    // deliveries: pg-boss's database-wide group limit lets a burst of one group through).
    await consume(queues.swap.name, cpuSlots, (job) => runSwapJob({ db: deps.db, boss, storage: deps.storage, engine }, job), rendersPerUser(cpuSlots));
    // A swap whose job ran out of attempts (its workers kept dying) ends failed and refunded.
    await consume(queues.swapDead.name, 1, async (job) => {
      await failSwap(deps.db, boss, job.data.swapId, INTERNAL_FAILURE);
      await retireSwapInputs(deps.db, deps.storage, job.data.swapId);
    });
  }
  await consume(queues.maintenance.name, 1, () => runMaintenance(deps));
  await boss.schedule(queues.maintenance.name, MAINTENANCE_SCHEDULE);
  await registerWebhookWorker(boss, { db: deps.db, vault: deps.vault, guard: deps.guard });
  names.push(queues.webhook.name);

  return {
    async stop(graceMs) {
      const finished = Promise.all(names.map((name) => boss.offWork(name, { wait: true })));
      if (graceMs === undefined) return void (await finished);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([finished, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
