import type { PgBoss } from 'pg-boss';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { queues, sendJob } from '../queue/boss';
import type { WebhookJob } from '../queue/payloads';

/**
 * Attempts of one API key's events in flight at once in one process: a key whose receiver never
 * answers holds one delivery slot per process for the attempt's timeout, and every other key's
 * webhooks go on through the rest.
 */
export const DELIVERIES_PER_KEY = 1;

/**
 * Queues an attempt through `db`, so given a transaction it exists only if the transaction
 * commits. Attempts are grouped by the API key that created the swap (`apiKeyId`), the unit
 * DELIVERIES_PER_KEY limits.
 */
export async function queueWebhookAttempt(
  boss: PgBoss,
  db: Kysely<Database>,
  job: WebhookJob,
  apiKeyId: string,
  startAfter?: Date,
): Promise<string> {
  return sendJob(boss, db, queues.webhook.name, job, { startAfter, group: { id: apiKeyId } });
}
