/**
 * A webhook receiver on Fastify. Fastify parses JSON bodies by default; inside this plugin the
 * JSON parser is replaced by one that keeps the raw bytes, which is what the signature covers.
 *
 *   DOPPEL_API_KEY=dpl_... PORT=3000 npx tsx examples/webhooks/fastify.ts
 */
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { verifyWebhook, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WebhookVerificationError } from '@doppel/sdk';
import { handleOnce, logEvent, ProcessedEvents, type EventHandler } from './processed-events';

/** The receiver for deliveries signed with `apiKey` (the key that created the swaps), on POST /webhooks/doppel. */
export function createFastifyReceiver(apiKey: string, onEvent: EventHandler = logEvent): FastifyInstance {
  const processed = new ProcessedEvents();
  const app = Fastify();
  // A plugin scope: the rest of an application keeps Fastify's usual JSON parsing.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post('/webhooks/doppel', async (request, reply) => {
      let event;
      try {
        event = verifyWebhook(request.body as Buffer, request.headers[WEBHOOK_SIGNATURE_HEADER], apiKey);
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        return reply.code(401).type('text/plain').send(error.reason);
      }
      const eventId = request.headers[WEBHOOK_EVENT_ID_HEADER];
      if (typeof eventId !== 'string' || eventId === '') {
        return reply.code(400).type('text/plain').send(`missing ${WEBHOOK_EVENT_ID_HEADER}`);
      }
      // A handler that throws becomes a 500, so Doppel retries.
      await handleOnce(processed, eventId, event, onEvent);
      return reply.code(200).send();
    });
  });
  return app;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const apiKey = process.env.DOPPEL_API_KEY;
  if (!apiKey) throw new Error('DOPPEL_API_KEY is not set');
  const port = Number(process.env.PORT ?? 3000);
  await createFastifyReceiver(apiKey).listen({ port, host: '0.0.0.0' });
  console.log(`listening on :${port}/webhooks/doppel`);
}
