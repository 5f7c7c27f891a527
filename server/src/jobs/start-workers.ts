import type { Job, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { KeyVault } from '../auth/key-vault';
import type { Config } from '../config';
import type { Db } from '../db/connect';
import type { ContentScanJob } from '../intake/scan-gate';
import type { FetchGuard } from '../media/fetch-guard';
import { queues, type QueueName } from '../queue/boss';
import type { Storage } from '../storage/storage';
import { registerWebhookWorker } from '../webhooks/worker';
import { runContentScanJob, type ContentScanDeps } from './content-scan-job';

export interface WorkerDeps {
  config: Config;
  db: Db;
  vault: KeyVault;
  boss: PgBoss;
  storage: Storage;
  guard: FetchGuard;
  logger: Logger;
  compute: Pick<ContentScanDeps, 'scan'>;
}

export interface Workers {
  /** Stops taking jobs and waits for the running ones to finish (pg-boss hands back the rest). */
  stop(): Promise<void>;
}

/** Consumes every queue in this process. CPU work goes to the compute pool, off the event loop. */
export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const { boss, logger } = deps;
  const names: QueueName[] = [];

  async function consume<T>(queue: QueueName, concurrency: number, handler: (job: Job<T>) => Promise<void>) {
    await boss.work<T>(queue, { localConcurrency: concurrency, pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) {
        try {
          await handler(job);
        } catch (error) {
          logger.error({ err: error, queue, job_id: job.id }, 'job failed');
          throw error;
        }
      }
    });
    names.push(queue);
  }

  const cpuSlots = deps.config.workerConcurrency ?? 2;
  await consume<ContentScanJob>(queues.contentScan.name, cpuSlots, (job) =>
    runContentScanJob({ db: deps.db, storage: deps.storage, scan: deps.compute.scan }, job),
  );
  await registerWebhookWorker(boss, { db: deps.db, vault: deps.vault, guard: deps.guard });
  names.push(queues.webhook.name);

  return {
    async stop() {
      await Promise.all(names.map((name) => boss.offWork(name, { wait: true })));
    },
  };
}
