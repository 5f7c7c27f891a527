import type { oas30 } from 'openapi3-ts';
import {
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookEventType,
} from '../schemas/webhook';
import { WEBHOOK_SIGNATURE_PATTERN } from '../webhook-signature';
import { webhookExamples } from './examples';
import { schemaRef } from './refs';

/** The delivery of webhook events as an operation: for `callbacks` and `x-webhooks`. */
export function webhookOperation(events: readonly WebhookEventType[]): oas30.OperationObject {
  return {
    summary: events.length === 1 ? `Webhook: ${events[0]}` : 'Swap webhook',
    description: [
      'POSTed to the `webhook_url` given at create when the swap reaches `done` (`swap.completed`) or `failed` (`swap.failed`).',
      `Verify \`${WEBHOOK_SIGNATURE_HEADER}\` before trusting the body: HMAC-SHA256 keyed with the API key that created the swap, over \`<t>.<raw body>\` (the raw bytes, never re-serialised JSON), lower-case hex; reject a \`t\` more than ${WEBHOOK_TOLERANCE_SECONDS} seconds from your clock, and compare in constant time.`,
      `Any non-2xx answer is retried, so receivers must be idempotent: de-duplicate on \`${WEBHOOK_EVENT_ID_HEADER}\`.`,
    ].join('\n\n'),
    // Deliveries are authenticated by their signature, not by a bearer key.
    security: [],
    parameters: [
      {
        name: WEBHOOK_SIGNATURE_HEADER,
        in: 'header',
        required: true,
        description: '`t=<unix-seconds>,v1=<hex HMAC-SHA256>`; the receiver answers 401 when it does not verify.',
        schema: { type: 'string', pattern: WEBHOOK_SIGNATURE_PATTERN.source },
        example: 't=1736937000,v1=9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a0c2e4b6d8f0a2c4e6b8d0f',
      },
      {
        name: WEBHOOK_EVENT_ID_HEADER,
        in: 'header',
        required: true,
        description: 'Identifier of the event; the same on every attempt.',
        schema: { type: 'string' },
      },
      {
        name: WEBHOOK_ATTEMPT_HEADER,
        in: 'header',
        required: true,
        description: '1 for the first attempt, then 2, 3, ...',
        schema: { type: 'integer', minimum: 1 },
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: schemaRef('WebhookPayload'),
          examples: Object.fromEntries(events.map((event) => [event, webhookExamples[event]])),
        },
      },
    },
    responses: {
      200: { description: 'Delivery accepted. Any 2xx counts as success.' },
      401: { description: 'The signature did not verify. The delivery is retried.' },
    },
  };
}
