import { z } from 'zod';
import { PublicSwapSchema } from './swaps';

/** Exact name of the signature header on every webhook delivery. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-doppel-signature';
/** Same value on every attempt of one event, for receivers to de-duplicate. */
export const WEBHOOK_EVENT_ID_HEADER = 'x-doppel-event-id';
/** 1 for the first attempt, then 2, 3, ... */
export const WEBHOOK_ATTEMPT_HEADER = 'x-doppel-delivery-attempt';
/** Receivers reject timestamps further than this from their clock (spec section 8). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const webhookEvents = ['swap.completed', 'swap.failed'] as const;
export const WebhookEventTypeSchema = z.enum(webhookEvents);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** Flat body: `event` followed by every PublicSwap field (spec section 6). */
export const WebhookPayloadSchema = z
  .object({ event: WebhookEventTypeSchema })
  .merge(PublicSwapSchema)
  .describe('Body of a webhook delivery.');

export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;
