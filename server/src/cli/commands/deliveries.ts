import { startBoss } from '@doppel/core/queue/boss';
import { readSwap } from '@doppel/core/tasks/swaps';
import { findWebhookEvent, listDeliveries, redeliver, type WebhookEventView } from '@doppel/core/webhooks/deliveries';
import { requireOption } from '../arguments';
import type { Command } from '../command';
import { CliError } from '../errors';
import { fields, table, timestamp } from '../output';

function eventJson(event: WebhookEventView) {
  return {
    id: event.id,
    event: event.event,
    status: event.status,
    url: event.url,
    created_at: event.createdAt,
    next_attempt_at: event.nextAttemptAt,
    completed_at: event.completedAt,
    attempts: event.attempts.map((a) => ({
      attempt: a.attempt,
      started_at: a.startedAt,
      status_code: a.statusCode,
      latency_ms: a.latencyMs,
      error: a.error,
    })),
  };
}

/** One block per event: its fields, then its attempts as a table indented under them. */
function eventText(event: WebhookEventView): string {
  const header = fields([
    ['event', `${event.id}  ${event.event}`],
    ['status', event.status],
    ['url', event.url],
    ['created', timestamp(event.createdAt)],
    ['next attempt', timestamp(event.nextAttemptAt)],
    ['completed', timestamp(event.completedAt)],
  ]);
  const attempts =
    event.attempts.length === 0
      ? 'no attempts yet'
      : table(
          ['#', 'STARTED', 'STATUS', 'LATENCY', 'ERROR'],
          event.attempts.map((a) => [
            String(a.attempt),
            timestamp(a.startedAt),
            a.statusCode === null ? '-' : String(a.statusCode),
            `${a.latencyMs} ms`,
            a.error ?? '-',
          ]),
        );
  return `${header}\n${attempts.replace(/^/gm, '  ')}`;
}

export const deliveriesList: Command = {
  name: 'deliveries list',
  synopsis: '--swap SWAP_ID',
  summary: "Show a swap's webhook events and every delivery attempt",
  options: ['swap'],
  prepare(args) {
    const swapId = requireOption(args, 'swap');
    return async ({ db }) => {
      // Swap ids are per key in the API, but unique in the table: the operator needs no key.
      const swap = await readSwap(db, swapId);
      if (!swap) throw new CliError(`no swap with id ${swapId}`);
      const events = await listDeliveries(db, swapId);
      return {
        json: { swap_id: swapId, events: events.map(eventJson) },
        text:
          events.length === 0
            ? `No webhook events for ${swapId} (it has no webhook_url, is not finished, or was canceled).`
            : events.map(eventText).join('\n\n'),
      };
    };
  },
};

export const deliveriesRedeliver: Command = {
  name: 'deliveries redeliver',
  synopsis: 'EVENT_ID',
  summary: 'Queue one more attempt of a webhook event, outside the retry schedule',
  options: [],
  positionals: ['EVENT_ID'],
  prepare(args) {
    const eventId = args.positionals[0]!;
    return async ({ db, databaseUrl }) => {
      // Looked up before pg-boss is started, so a typo costs no queue start-up.
      const event = await findWebhookEvent(db, eventId);
      if (!event) throw new CliError(`no webhook event with id ${eventId}`);
      const bossErrors: Error[] = [];
      const boss = await startBoss(databaseUrl, (error) => bossErrors.push(error));
      let queued: boolean;
      try {
        queued = await redeliver(db, boss, eventId);
      } finally {
        // Nothing is worked on here: the job is in the table, a worker process sends it.
        await boss.stop({ graceful: false });
      }
      if (bossErrors[0]) throw bossErrors[0];
      if (!queued) throw new CliError(`no webhook event with id ${eventId}`);
      return {
        json: { queued: { event_id: event.id, swap_id: event.swap_id, event: event.event_type, url: event.url } },
        text:
          `Queued one more attempt of ${event.id} (${event.event_type} to ${event.url}). ` +
          `A worker process sends it; see 'doppel deliveries list --swap ${event.swap_id}'.`,
      };
    };
  },
};
