import { WEBHOOK_SIGNATURE_HEADER } from '@doppel/contract';
import type { MediaRoute } from './media-server';
import { verifyWebhook, WebhookVerificationError } from '@doppel/sdk';

/**
 * A receiver written as the docs tell integrators to: verify the raw body with the SDK and the
 * API key, answer 401 when that fails, otherwise answer the next status of `statuses` (the last
 * one repeats).
 */
export function verifyingReceiver(apiKey: string, statuses: readonly number[] = [200]): MediaRoute {
  let answered = 0;
  return (req, res, body) => {
    try {
      verifyWebhook(body, req.headers[WEBHOOK_SIGNATURE_HEADER], apiKey);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      res.writeHead(401).end(error.reason);
      return;
    }
    const status = statuses[Math.min(answered++, statuses.length - 1)]!;
    res.writeHead(status).end();
  };
}
