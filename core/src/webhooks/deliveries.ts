import type { WebhookEventType } from '@doppel/contract';
import { sql, type Insertable, type Transaction } from 'kysely';
import type { PgBoss } from 'pg-boss';
import type { Db } from '../db/connect';
import type { Database, WebhookAttemptsTable, WebhookEventRow, WebhookEventStatus, WebhookEventsTable } from '../db/schema';
import { queueWebhookAttempt } from './job';

// The one module that reads and writes `webhook_events` and `webhook_attempts`.

export interface WebhookAttemptView {
  attempt: number;
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface WebhookEventView {
  id: string;
  swapId: string;
  event: WebhookEventType;
  url: string;
  status: WebhookEventStatus;
  createdAt: Date;
  nextAttemptAt: Date | null;
  completedAt: Date | null;
  /** Oldest first. */
  attempts: WebhookAttemptView[];
}

/** A swap's events, oldest first, each with its recorded attempts (operator CLI, dashboard). */
export async function listDeliveries(db: Db, swapId: string): Promise<WebhookEventView[]> {
  const events = await db
    .selectFrom('webhook_events')
    .select(['id', 'swap_id', 'event_type', 'url', 'status', 'created_at', 'next_attempt_at', 'completed_at'])
    .where('swap_id', '=', swapId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (events.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('event_id', 'in', events.map((e) => e.id))
    .orderBy('attempt')
    .execute();
  return events.map((e) => ({
    id: e.id,
    swapId: e.swap_id,
    event: e.event_type,
    url: e.url,
    status: e.status,
    createdAt: e.created_at,
    nextAttemptAt: e.next_attempt_at,
    completedAt: e.completed_at,
    attempts: attempts
      .filter((a) => a.event_id === e.id)
      .map((a) => ({
        attempt: a.attempt,
        startedAt: a.started_at,
        statusCode: a.status_code,
        latencyMs: a.latency_ms,
        error: a.error,
      })),
  }));
}

/** The swap an event belongs to, or undefined for an unknown event. */
export async function findEventSwapId(db: Db, eventId: string): Promise<string | undefined> {
  const event = await db.selectFrom('webhook_events').select('swap_id').where('id', '=', eventId).executeTakeFirst();
  return event?.swap_id;
}

/**
 * Queues one more attempt of an existing event (operator CLI, dashboard): same event id, same body, a
 * fresh signature and the next attempt number. It stands outside the retry schedule: a failure
 * is recorded and not retried, a success marks the event delivered. False for an unknown event.
 */
export async function redeliver(db: Db, boss: PgBoss, eventId: string): Promise<boolean> {
  const event = await db.selectFrom('webhook_events').select('api_key_id').where('id', '=', eventId).executeTakeFirst();
  if (!event) return false;
  await queueWebhookAttempt(boss, db, { eventId, step: null }, event.api_key_id);
  return true;
}

/** A terminal event to deliver, pending from now (in the transaction that ends the swap). */
export async function insertWebhookEvent(trx: Transaction<Database>, event: Insertable<WebhookEventsTable>): Promise<void> {
  await trx.insertInto('webhook_events').values(event).execute();
}

/** An event by id, for the operator's redelivery. */
export function findWebhookEvent(db: Db, eventId: string): Promise<Pick<WebhookEventRow, 'id' | 'swap_id' | 'event_type' | 'url'> | undefined> {
  return db.selectFrom('webhook_events').select(['id', 'swap_id', 'event_type', 'url']).where('id', '=', eventId).executeTakeFirst();
}

/**
 * The event with its attempt counter moved on, or undefined when there is nothing to send: a
 * scheduled attempt only while the event is pending, a redelivery whatever its status.
 */
export function claimWebhookAttempt(db: Db, eventId: string, scheduled: boolean): Promise<WebhookEventRow | undefined> {
  let claim = db
    .updateTable('webhook_events')
    .set({ attempts: sql<number>`attempts + 1` })
    .where('id', '=', eventId);
  if (scheduled) claim = claim.where('status', '=', 'pending');
  return claim.returningAll().executeTakeFirst();
}

export async function recordWebhookAttempt(trx: Transaction<Database>, attempt: Insertable<WebhookAttemptsTable>): Promise<void> {
  await trx.insertInto('webhook_attempts').values(attempt).execute();
}

export async function markWebhookDelivered(trx: Transaction<Database>, eventId: string): Promise<void> {
  await trx
    .updateTable('webhook_events')
    .set({ status: 'delivered', completed_at: sql<Date>`now()`, next_attempt_at: null })
    .where('id', '=', eventId)
    .execute();
}

/** A pending event whose schedule has run out ends failed. */
export async function markWebhookFailed(trx: Transaction<Database>, eventId: string): Promise<void> {
  await trx
    .updateTable('webhook_events')
    .set({ status: 'failed', completed_at: sql<Date>`now()`, next_attempt_at: null })
    .where('id', '=', eventId)
    .where('status', '=', 'pending')
    .execute();
}

/** The next attempt's time of a pending event; false when the event is no longer pending. */
export async function postponeWebhook(trx: Transaction<Database>, eventId: string, at: Date): Promise<boolean> {
  const still = await trx
    .updateTable('webhook_events')
    .set({ next_attempt_at: at })
    .where('id', '=', eventId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return still.numUpdatedRows > 0n;
}
