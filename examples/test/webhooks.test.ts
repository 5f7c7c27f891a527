import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  generateTestSignatureHeader,
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookPayload,
} from '@doppel/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createExpressReceiver } from '../webhooks/express';
import { createFastifyReceiver } from '../webhooks/fastify';
import { createNodeReceiver } from '../webhooks/node-http';
import type { EventHandler } from '../webhooks/processed-events';

const API_KEY = 'dpl_receiver_test_key_0123456789abcdefghijklmnopq';

interface Running {
  url: string;
  close(): Promise<void>;
}

async function listening(server: Server): Promise<Running> {
  if (!server.listening) await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/doppel`,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Each example, started on a free loopback port as its main would start it on PORT. */
const receivers: Record<string, (apiKey: string, onEvent: EventHandler) => Promise<Running>> = {
  express: (apiKey, onEvent) => listening(createExpressReceiver(apiKey, onEvent).listen(0, '127.0.0.1')),
  fastify: async (apiKey, onEvent) => {
    const app = createFastifyReceiver(apiKey, onEvent);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/webhooks/doppel`, close: () => app.close() };
  },
  'node:http': (apiKey, onEvent) => listening(createNodeReceiver(apiKey, onEvent).listen(0, '127.0.0.1')),
};

/** A delivery body as the worker serialises it: the event name first, then the swap. */
function payload(id: string): string {
  return JSON.stringify({
    event: 'swap.completed',
    id,
    type: 'image',
    status: 'done',
    credit_cost: 1,
    progress: 100,
    created_at: '2025-06-01T09:30:12.402Z',
    result_url: `https://cdn.example.com/results/${id}.jpg`,
    error: null,
    metadata: { order_id: '1042' },
    webhook_url: 'https://hooks.example.com/doppel',
  });
}

function deliver(url: string, body: string, headers: { signature: string; eventId: string; attempt?: number }) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [WEBHOOK_SIGNATURE_HEADER]: headers.signature,
      [WEBHOOK_EVENT_ID_HEADER]: headers.eventId,
      [WEBHOOK_ATTEMPT_HEADER]: String(headers.attempt ?? 1),
    },
    body,
  });
}

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

for (const [name, start] of Object.entries(receivers)) {
  describe(`the ${name} receiver`, () => {
    const handled: [WebhookPayload, string][] = [];
    /** Starts the receiver; `fail` makes the next that many handler calls throw. */
    const begin = async (fail = 0) => {
      handled.length = 0;
      running = await start(API_KEY, (event, eventId) => {
        if (fail-- > 0) throw new Error('database unavailable');
        handled.push([event, eventId]);
      });
      return running.url;
    };

    it('answers 200 to a correctly signed delivery and hands on the typed event', async () => {
      const url = await begin();
      const body = payload('swp_signed');
      const response = await deliver(url, body, {
        signature: generateTestSignatureHeader({ payload: body, apiKey: API_KEY }),
        eventId: 'evt_signed',
      });
      expect(response.status).toBe(200);
      expect(handled).toEqual([[JSON.parse(body), 'evt_signed']]);
    });

    it('answers 401 to a tampered body, and to a body signed with another key, handing on nothing', async () => {
      const url = await begin();
      const body = payload('swp_tampered');
      const signature = generateTestSignatureHeader({ payload: body, apiKey: API_KEY });
      const tampered = await deliver(url, body.replace('"done"', '"failed"'), { signature, eventId: 'evt_tampered' });
      expect(tampered.status).toBe(401);
      expect(await tampered.text()).toBe('no_matching_signature');

      const otherKey = generateTestSignatureHeader({ payload: body, apiKey: `${API_KEY}-other` });
      const wrongKey = await deliver(url, body, { signature: otherKey, eventId: 'evt_wrong_key' });
      expect(wrongKey.status).toBe(401);

      const unsigned = await deliver(url, body, { signature: '', eventId: 'evt_unsigned' });
      expect(unsigned.status).toBe(401);
      expect(handled).toEqual([]);
    });

    it('answers 401 to a correctly signed delivery whose timestamp is older than five minutes', async () => {
      const url = await begin();
      const body = payload('swp_stale');
      const stale = generateTestSignatureHeader({ payload: body, apiKey: API_KEY, timestamp: Math.floor(Date.now() / 1000) - 600 });
      const response = await deliver(url, body, { signature: stale, eventId: 'evt_stale' });
      expect(response.status).toBe(401);
      expect(await response.text()).toBe('timestamp_too_old');
      expect(handled).toEqual([]);
    });

    it('answers a retried event id with 200 again, without handing it on twice', async () => {
      const url = await begin();
      const body = payload('swp_retried');
      for (const attempt of [1, 2, 3]) {
        // Each attempt is signed afresh, as Doppel does; only the signature and attempt number change.
        const signature = generateTestSignatureHeader({ payload: body, apiKey: API_KEY });
        const response = await deliver(url, body, { signature, eventId: 'evt_retried', attempt });
        expect(response.status).toBe(200);
      }
      const other = payload('swp_other');
      const second = await deliver(url, other, {
        signature: generateTestSignatureHeader({ payload: other, apiKey: API_KEY }),
        eventId: 'evt_other',
      });
      expect(second.status).toBe(200);
      expect(handled.map(([event, eventId]) => [event.id, eventId])).toEqual([
        ['swp_retried', 'evt_retried'],
        ['swp_other', 'evt_other'],
      ]);
    });

    it('answers 500 when the handler fails, and handles the retry of that event', async () => {
      const url = await begin(1);
      const body = payload('swp_flaky');
      const send = () =>
        deliver(url, body, { signature: generateTestSignatureHeader({ payload: body, apiKey: API_KEY }), eventId: 'evt_flaky' });
      expect((await send()).status).toBe(500);
      expect((await send()).status).toBe(200);
      expect(handled.map(([, eventId]) => eventId)).toEqual(['evt_flaky']);
    });
  });
}
