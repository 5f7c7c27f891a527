import type { PgBoss } from 'pg-boss';
import { queues } from '@doppel/core/queue/boss';
import { deliverWebhook, type WebhookDeliveryDeps } from './deliver';
import type { WebhookJob } from '@doppel/core/queue/payloads';
import { DELIVERIES_PER_KEY } from '@doppel/core/webhooks/job';

export interface WebhookWorkerOptions {
  /** Attempts in flight at once in this process; deliveries wait on the network, not the CPU. */
  concurrency?: number;
  /** How often an idle worker looks for due attempts; pg-boss's 2 s unless a test shortens it. */
  pollingIntervalSeconds?: number;
}

/**
 * Starts consuming the webhook queue in this process; returns the pg-boss worker id (for
 * `boss.offWork`). A handler that throws (database gone mid-attempt) leaves the job to pg-boss's
 * own retries; an attempt that merely failed is recorded and rescheduled by the handler.
 */
export function registerWebhookWorker(
  boss: PgBoss,
  deps: WebhookDeliveryDeps,
  options: WebhookWorkerOptions = {},
): Promise<string> {
  return boss.work<WebhookJob>(
    queues.webhook.name,
    {
      localConcurrency: options.concurrency ?? 4,
      // Counted in this process: pg-boss's database-wide group limit is checked by concurrent
      // fetches that cannot see each other's claims, so it lets a burst of one key through.
      localGroupConcurrency: DELIVERIES_PER_KEY,
      ...(options.pollingIntervalSeconds ? { pollingIntervalSeconds: options.pollingIntervalSeconds } : {}),
    },
    async (jobs) => {
      for (const job of jobs) await deliverWebhook(boss, deps, job.data);
    },
  );
}
