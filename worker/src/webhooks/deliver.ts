import type { PgBoss } from 'pg-boss';
import { revealApiKey } from '@doppel/core/accounts/api-keys';
import type { KeyVault } from '@doppel/core/keys/key-vault';
import type { Db } from '@doppel/core/db/connect';
import type { WebhookEventRow } from '@doppel/core/db/schema';
import type { FetchGuard } from '@doppel/core/media/fetch-guard';
import type { WebhookJob } from '@doppel/core/queue/payloads';
import {
  claimWebhookAttempt,
  markWebhookDelivered,
  markWebhookFailed,
  postponeWebhook,
  recordWebhookAttempt,
} from '@doppel/core/webhooks/deliveries';
import { queueWebhookAttempt } from '@doppel/core/webhooks/job';
import { DEFAULT_RETRY_DELAYS_MS, retryDelayMs } from '@doppel/core/webhooks/schedule';
import { sendAttempt, type AttemptOutcome } from './send-attempt';

export interface WebhookDeliveryDeps {
  db: Db;
  vault: KeyVault;
  guard: FetchGuard;
  /** Waits before the 2nd, 3rd, ... attempt; DEFAULT_RETRY_DELAYS_MS unless a test shortens it. */
  retryDelaysMs?: readonly number[];
  /** Per-attempt limit for the whole exchange; 15 s by default. */
  timeoutMs?: number;
}

/**
 * Runs one attempt of an event: takes the next attempt number, signs with the key that created
 * the swap (revoked or not: receivers still hold it), sends, then records the outcome and the
 * next step of the schedule in one transaction. A scheduled attempt finding its event already
 * settled (delivered by a redelivery) does nothing.
 */
export async function deliverWebhook(boss: PgBoss, deps: WebhookDeliveryDeps, job: WebhookJob): Promise<void> {
  const event = await claimWebhookAttempt(deps.db, job.eventId, job.step !== null);
  if (!event) return;
  const apiKey = await revealApiKey(deps.db, deps.vault, event.api_key_id);
  const outcome = await sendAttempt(
    { url: event.url, body: event.body, eventId: event.id, attempt: event.attempts, apiKey },
    { guard: deps.guard, timeoutMs: deps.timeoutMs },
  );
  await recordOutcome(boss, deps, job, event, outcome);
}

async function recordOutcome(
  boss: PgBoss,
  deps: WebhookDeliveryDeps,
  job: WebhookJob,
  event: WebhookEventRow,
  outcome: AttemptOutcome,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await recordWebhookAttempt(trx, {
      event_id: event.id,
      attempt: event.attempts,
      started_at: outcome.startedAt,
      status_code: outcome.statusCode,
      latency_ms: outcome.latencyMs,
      error: outcome.error,
    });
    if (outcome.delivered) return markWebhookDelivered(trx, event.id);
    // A failed redelivery leaves the event as it was; only the schedule decides failure.
    if (job.step === null) return;
    const delay = retryDelayMs(deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS, job.step);
    if (delay === null) return markWebhookFailed(trx, event.id);
    const startAfter = new Date(Date.now() + delay);
    if (await postponeWebhook(trx, event.id, startAfter)) {
      await queueWebhookAttempt(boss, trx, { eventId: event.id, step: job.step + 1 }, event.api_key_id, startAfter);
    }
  });
}
