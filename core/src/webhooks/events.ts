import { WebhookPayloadSchema, type SwapStatus, type WebhookEventType } from '@doppel/contract';
import type { Transaction } from 'kysely';
import type { PgBoss } from 'pg-boss';
import type { Database, SwapRow } from '../db/schema';
import { newId } from '../ids';
import { toPublicSwap } from '../tasks/public-swap';
import { insertWebhookEvent } from './deliveries';
import { queueWebhookAttempt } from './job';

/**
 * The event a swap's new status causes. Canceled sends nothing: the caller canceled it
 * themselves and already holds the answer of DELETE /swaps/{id}.
 */
export function webhookEventFor(status: SwapStatus): WebhookEventType | null {
  if (status === 'done') return 'swap.completed';
  if (status === 'failed') return 'swap.failed';
  return null;
}

/**
 * The body of an event, checked against the contract and serialised once: the stored text is
 * what every attempt sends and signs, byte for byte.
 */
export function webhookBody(event: WebhookEventType, swap: SwapRow): string {
  return JSON.stringify(WebhookPayloadSchema.parse({ event, ...toPublicSwap(swap) }));
}

/**
 * Call inside the transaction that moves the swap to `done` or `failed`, with the row as it is
 * after the update. Stores the event and queues its first attempt in that transaction, so a
 * commit means the event will be delivered and a rollback leaves no trace. Returns the event
 * id, or null when the swap wants no webhook or its status causes no event.
 */
export async function enqueueWebhookEvent(trx: Transaction<Database>, boss: PgBoss, swap: SwapRow): Promise<string | null> {
  const event = webhookEventFor(swap.status);
  if (!event || !swap.webhook_url) return null;
  const id = newId('evt');
  await insertWebhookEvent(trx, {
    id,
    swap_id: swap.id,
    api_key_id: swap.api_key_id,
    event_type: event,
    url: swap.webhook_url,
    body: webhookBody(event, swap),
    next_attempt_at: new Date(),
  });
  await queueWebhookAttempt(boss, trx, { eventId: id, step: 0 }, swap.api_key_id);
  return id;
}
