import type { PgBoss } from 'pg-boss';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { queues, sendJob } from '../queue/boss';

/**
 * One delivery attempt. `step` is the position in the retry schedule for automatic attempts
 * (0 for the first); null marks an operator's redelivery, which stands outside the schedule.
 */
export interface WebhookJob {
  eventId: string;
  step: number | null;
}

/** Queues an attempt through `db`, so given a transaction it exists only if the transaction commits. */
export async function queueWebhookAttempt(
  boss: PgBoss,
  db: Kysely<Database>,
  job: WebhookJob,
  startAfter?: Date,
): Promise<string> {
  return sendJob(boss, db, queues.webhook.name, job, { startAfter });
}
