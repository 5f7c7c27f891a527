/**
 * A webhook receiver on plain `node:http`: the body is read to the end as bytes and verified
 * exactly as received.
 *
 *   DOPPEL_API_KEY=dpl_... PORT=3000 npx tsx examples/webhooks/node-http.ts
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { verifyWebhook, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WebhookVerificationError } from '@doppel/sdk';
import { handleOnce, logEvent, ProcessedEvents, type EventHandler } from './processed-events';

/** Deliveries are a few KiB; anyone can POST here before the signature is checked, so bodies are capped. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The body as bytes, or null once it passes MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function answer(res: ServerResponse, status: number, text = ''): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
}

/** The receiver for deliveries signed with `apiKey` (the key that created the swaps), on POST /webhooks/doppel. */
export function createNodeReceiver(apiKey: string, onEvent: EventHandler = logEvent): Server {
  const processed = new ProcessedEvents();

  async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/webhooks/doppel') return answer(res, 404);
    if (req.method !== 'POST') return answer(res, 405);
    const body = await readBody(req);
    if (!body) {
      // The rest of the body is not read: close the connection instead of keeping it alive.
      res.setHeader('connection', 'close');
      return answer(res, 413);
    }
    let event;
    try {
      event = verifyWebhook(body, req.headers[WEBHOOK_SIGNATURE_HEADER], apiKey);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return answer(res, 401, error.reason);
    }
    const eventId = req.headers[WEBHOOK_EVENT_ID_HEADER];
    if (typeof eventId !== 'string' || eventId === '') return answer(res, 400, `missing ${WEBHOOK_EVENT_ID_HEADER}`);
    await handleOnce(processed, eventId, event, onEvent);
    answer(res, 200);
  }

  return createServer((req, res) => {
    // A handler that throws becomes a 500, so Doppel retries.
    receive(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) answer(res, 500);
      else res.destroy();
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const apiKey = process.env.DOPPEL_API_KEY;
  if (!apiKey) throw new Error('DOPPEL_API_KEY is not set');
  const port = Number(process.env.PORT ?? 3000);
  createNodeReceiver(apiKey).listen(port, () => console.log(`listening on :${port}/webhooks/doppel`));
}
