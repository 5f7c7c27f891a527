/**
 * A webhook receiver on Express: `express.raw` keeps the body as the exact bytes that were
 * signed (express.json would re-serialise them and the signature would no longer match).
 *
 *   DOPPEL_API_KEY=dpl_... PORT=3000 npx tsx examples/webhooks/express.ts
 */
import { pathToFileURL } from 'node:url';
import express, { type Express } from 'express';
import { verifyWebhook, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WebhookVerificationError } from '@doppel/sdk';
import { handleOnce, logEvent, ProcessedEvents, type EventHandler } from './processed-events';

/** The receiver for deliveries signed with `apiKey` (the key that created the swaps), on POST /webhooks/doppel. */
export function createExpressReceiver(apiKey: string, onEvent: EventHandler = logEvent): Express {
  const processed = new ProcessedEvents();
  const app = express();
  app.post('/webhooks/doppel', express.raw({ type: 'application/json' }), async (req, res) => {
    let event;
    try {
      // Without a JSON content type req.body is not a Buffer, and verification says body_not_raw.
      event = verifyWebhook(req.body, req.get(WEBHOOK_SIGNATURE_HEADER), apiKey);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      res.status(401).type('text/plain').send(error.reason);
      return;
    }
    const eventId = req.get(WEBHOOK_EVENT_ID_HEADER);
    if (!eventId) {
      res.status(400).type('text/plain').send(`missing ${WEBHOOK_EVENT_ID_HEADER}`);
      return;
    }
    // A handler that throws becomes a 500 (Express 5 catches rejected promises), so Doppel retries.
    await handleOnce(processed, eventId, event, onEvent);
    res.sendStatus(200);
  });
  return app;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const apiKey = process.env.DOPPEL_API_KEY;
  if (!apiKey) throw new Error('DOPPEL_API_KEY is not set');
  const port = Number(process.env.PORT ?? 3000);
  createExpressReceiver(apiKey).listen(port, () => console.log(`listening on :${port}/webhooks/doppel`));
}
