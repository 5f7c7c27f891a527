import type { PgBoss } from 'pg-boss';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { queues, sendJob } from '../queue/boss';
import type { WebhookJob } from '../queue/payloads';

/** Queues an attempt through `db`, so given a transaction it exists only if the transaction commits. */
export async function queueWebhookAttempt(
  boss: PgBoss,
  db: Kysely<Database>,
  job: WebhookJob,
  startAfter?: Date,
): Promise<string> {
  return sendJob(boss, db, queues.webhook.name, job, { startAfter });
}
