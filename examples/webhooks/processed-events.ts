import type { WebhookPayload } from '@doppel/sdk';

/** Where a receiver hands a verified, first-seen event; the examples log it. */
export type EventHandler = (event: WebhookPayload, eventId: string) => void | Promise<void>;

export const logEvent: EventHandler = (event, eventId) => {
  console.log(`${eventId}: ${event.event} for ${event.id} (${event.status}) ${event.result_url ?? event.error ?? ''}`);
};

/**
 * The `x-doppel-event-id`s a receiver has handled, so a retried or redelivered event is answered
 * 200 without acting twice. Kept in memory for the examples; a real receiver stores the id in
 * the same transaction as its own effect (a table with a unique id), so that a restart or a
 * second instance still knows it.
 */
export class ProcessedEvents {
  readonly #ids = new Set<string>();

  /** True the first time an id is claimed. Claiming before the work means two concurrent copies of an event run it once. */
  claim(eventId: string): boolean {
    if (this.#ids.has(eventId)) return false;
    this.#ids.add(eventId);
    return true;
  }

  /** The work failed: forget the id, so the delivery's retry is handled afresh. */
  release(eventId: string): void {
    this.#ids.delete(eventId);
  }
}

/** Hands a verified event to `onEvent` once per event id; a replay does nothing and the route answers 200 again. */
export async function handleOnce(
  processed: ProcessedEvents,
  eventId: string,
  event: WebhookPayload,
  onEvent: EventHandler,
): Promise<void> {
  if (!processed.claim(eventId)) return;
  try {
    await onEvent(event, eventId);
  } catch (error) {
    processed.release(eventId);
    throw error;
  }
}
