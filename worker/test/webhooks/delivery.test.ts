import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  type SwapStatus,
} from '@doppel/contract';
import { sql } from 'kysely';
import type { PgBoss } from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey, revokeApiKey, type IssuedKey } from '@doppel/core/accounts/api-keys';
import { createUser } from '@doppel/core/accounts/users';
import { KeyVault } from '@doppel/core/keys/key-vault';
import type { SwapRow, SwapUpdate } from '@doppel/core/db/schema';
import { newId } from '@doppel/core/ids';
import { queues, startBoss } from '@doppel/core/queue/boss';
import { toPublicSwap } from '@doppel/core/tasks/public-swap';
import { insertSwap } from '@doppel/core/tasks/swaps';
import { listDeliveries, redeliver } from '@doppel/core/webhooks/deliveries';
import { enqueueWebhookEvent, webhookEventFor } from '@doppel/core/webhooks/events';
import { registerWebhookWorker } from '../../src/webhooks/webhook-worker';
import { verifyWebhook } from '@doppel/sdk';
import { createTestDatabase, type TestDatabase } from '@doppel/core/testing/database';
import { redirectTo, type MediaRoute, type RecordedRequest } from '@doppel/core/testing/media-server';
import { startReceiverWorld, type ReceiverWorld } from '@doppel/core/testing/webhook-receiver';
import { verifyingReceiver } from '@doppel/core/testing/verifying-receiver';

/** The documented schedule, shortened: four attempts 100 ms apart (plus jitter and polling). */
const TEST_RETRY_DELAYS_MS = [100, 100, 100];
const MAX_ATTEMPTS = TEST_RETRY_DELAYS_MS.length + 1;

let database: TestDatabase;
let boss: PgBoss;
let hooks: ReceiverWorld;
let key: IssuedKey;
const vault = new KeyVault(randomBytes(32));
const bossErrors: Error[] = [];
/** Each test answers on a path of its own, so requests never mix between tests. */
const routes: Record<string, MediaRoute> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  hooks = await startReceiverWorld(routes, { 'internal.receiver.test': { addresses: ['10.0.0.7'] } });
  boss = await startBoss(database.url, (error) => bossErrors.push(error));
  await registerWebhookWorker(
    boss,
    { db: database.db, vault, guard: hooks.guard, retryDelaysMs: TEST_RETRY_DELAYS_MS },
    { pollingIntervalSeconds: 0.5 },
  );
  const user = await createUser(database.db, { email: 'hooks@example.com' });
  key = await issueApiKey(database.db, vault, user.id);
});

afterAll(async () => {
  await boss?.stop({ graceful: false });
  await hooks?.close();
  await database?.close();
});

// A failed attempt is the handler's business; a handler that threw (left to pg-boss's own
// retries) or a pg-boss error means something broke.
afterEach(async () => {
  const crashed = await sql<{ n: number }>`
    select count(*)::int as n from pgboss.job where name = ${queues.webhook.name} and state in ('failed', 'retry')
  `.execute(database.db);
  expect(crashed.rows[0]!.n).toBe(0);
  expect(bossErrors).toEqual([]);
});

/** A receiver path for one test, answering with `route`. */
function receiverUrl(path: string, route: MediaRoute): string {
  routes[path] = route;
  return hooks.url(path);
}

function requestsTo(path: string): RecordedRequest[] {
  return hooks.receiver.requests.filter((r) => r.path === path);
}

async function createSwap(webhookUrl: string | null, apiKeyId = key.id): Promise<SwapRow> {
  return insertSwap(database.db, {
    id: newId('swp'),
    api_key_id: apiKeyId,
    user_id: key.userId,
    type: 'image',
    status: 'processing',
    credit_cost: 1,
    updated_at: new Date(),
    result_url: null,
    error: null,
    metadata: JSON.stringify({ order: 'A-17', note: 'ünïcödé' }),
    webhook_url: webhookUrl,
    params: JSON.stringify({}),
    inputs: JSON.stringify({}),
    completed_at: null,
  });
}

const finalFields: Record<'done' | 'failed' | 'canceled', SwapUpdate> = {
  done: { status: 'done', progress: 100, result_url: 'https://cdn.example.com/results/r.jpg' },
  failed: { status: 'failed', error: 'no face found in the source image' },
  canceled: { status: 'canceled' },
};

/** What the swap job does: the terminal update and the event in one transaction. */
async function finishSwap(swap: SwapRow, status: 'done' | 'failed' | 'canceled'): Promise<{ row: SwapRow; eventId: string | null }> {
  return database.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('swaps')
      .set({ ...finalFields[status], updated_at: new Date(), completed_at: new Date() })
      .where('id', '=', swap.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, eventId: await enqueueWebhookEvent(trx, boss, row) };
  });
}

/** Polls the database until `check` returns a value; fails after the deadline. */
async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The event's deliveries once it has settled (delivered or failed) with `attempts` recorded. */
async function settled(swapId: string, status: 'delivered' | 'failed', attempts: number) {
  return eventually(async () => {
    const [event] = await listDeliveries(database.db, swapId);
    return event?.status === status && event.attempts.length === attempts ? event : undefined;
  }, `${status} after ${attempts} attempts`);
}

describe('webhook events', () => {
  it('maps done to swap.completed, failed to swap.failed, and sends nothing for any other status', () => {
    expect(webhookEventFor('done')).toBe('swap.completed');
    expect(webhookEventFor('failed')).toBe('swap.failed');
    const others: SwapStatus[] = ['queued', 'preparing', 'processing', 'canceled'];
    for (const status of others) expect(webhookEventFor(status)).toBeNull();
  });

  it.each([
    ['done', 'swap.completed'],
    ['failed', 'swap.failed'],
  ] as const)('delivers one signed POST when a swap ends %s, with the stored bytes signed', async (status, event) => {
    const path = `/terminal-${status}`;
    const swap = await createSwap(receiverUrl(path, verifyingReceiver(key.key)));
    const { row, eventId } = await finishSwap(swap, status);

    const delivery = await settled(swap.id, 'delivered', 1);
    expect(delivery).toMatchObject({ id: eventId, event, status: 'delivered', url: swap.webhook_url });
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, error: null });

    const [request] = requestsTo(path);
    expect(requestsTo(path)).toHaveLength(1);
    const stored = await database.db.selectFrom('webhook_events').select('body').where('id', '=', eventId).executeTakeFirstOrThrow();
    expect(request!.body.toString('utf8')).toBe(stored.body);
    expect(request!.method).toBe('POST');
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Doppel-Webhooks/1',
      [WEBHOOK_EVENT_ID_HEADER]: eventId,
      [WEBHOOK_ATTEMPT_HEADER]: '1',
    });
    expect(request!.headers[WEBHOOK_SIGNATURE_HEADER]).toMatch(/^t=\d+,v1=[a-f0-9]{64}$/);
    // The body is flat: the event name first, then every PublicSwap field as the API shows it.
    const payload = verifyWebhook(request!.body, request!.headers[WEBHOOK_SIGNATURE_HEADER], key.key);
    expect(payload).toEqual({ event, ...toPublicSwap(row) });
    expect(Object.keys(JSON.parse(stored.body))[0]).toBe('event');
  });

  it('stores no event and queues nothing for a canceled swap or a swap without webhook_url', async () => {
    const canceled = await createSwap(receiverUrl('/canceled', verifyingReceiver(key.key)));
    const withoutUrl = await createSwap(null);
    expect((await finishSwap(canceled, 'canceled')).eventId).toBeNull();
    expect((await finishSwap(withoutUrl, 'done')).eventId).toBeNull();

    const events = await database.db
      .selectFrom('webhook_events')
      .select('id')
      .where('swap_id', 'in', [canceled.id, withoutUrl.id])
      .execute();
    expect(events).toEqual([]);
  });

  it('leaves neither an event nor a job behind when the terminal transaction rolls back', async () => {
    const swap = await createSwap(receiverUrl('/rolled-back', verifyingReceiver(key.key)));
    let eventId: string | null = null;
    await expect(
      database.db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('swaps')
          .set({ status: 'done', progress: 100, result_url: 'https://cdn.example.com/r.jpg' })
          .where('id', '=', swap.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        eventId = await enqueueWebhookEvent(trx, boss, row);
        throw new Error('the result upload failed after all');
      }),
    ).rejects.toThrow('the result upload failed after all');

    expect(eventId).toMatch(/^evt_/);
    expect(await listDeliveries(database.db, swap.id)).toEqual([]);
    expect(await boss.findJobs(queues.webhook.name, { data: { eventId } })).toEqual([]);
    expect(requestsTo('/rolled-back')).toEqual([]);
  });
});

describe('webhook retries', () => {
  it('retries a receiver that answers 500 twice, with the same event id and attempts 1, 2, 3', async () => {
    const path = '/flaky';
    const swap = await createSwap(receiverUrl(path, verifyingReceiver(key.key, [500, 500, 200])));
    const { eventId } = await finishSwap(swap, 'done');

    const delivery = await settled(swap.id, 'delivered', 3);
    expect(delivery.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    const requests = requestsTo(path);
    expect(requests.map((r) => r.headers[WEBHOOK_ATTEMPT_HEADER])).toEqual(['1', '2', '3']);
    expect(new Set(requests.map((r) => r.headers[WEBHOOK_EVENT_ID_HEADER]))).toEqual(new Set([eventId]));
    // Identical bytes every time; each attempt is signed afresh and verifies on its own.
    expect(new Set(requests.map((r) => r.body.toString('hex'))).size).toBe(1);
    for (const r of requests) verifyWebhook(r.body, r.headers[WEBHOOK_SIGNATURE_HEADER], key.key);
  });

  it('marks the event failed once a receiver that never answers 2xx has used up the schedule', async () => {
    const path = '/down';
    const swap = await createSwap(receiverUrl(path, verifyingReceiver(key.key, [503])));
    await finishSwap(swap, 'failed');

    const delivery = await settled(swap.id, 'failed', MAX_ATTEMPTS);
    expect(delivery.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    for (const attempt of delivery.attempts) {
      expect(attempt).toMatchObject({ statusCode: 503, error: null });
      expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
      expect(attempt.startedAt).toBeInstanceOf(Date);
    }
    expect(delivery.completedAt).toBeInstanceOf(Date);
    expect(delivery.nextAttemptAt).toBeNull();
    expect(requestsTo(path)).toHaveLength(MAX_ATTEMPTS);
  });

  it("does not let a key whose receiver never answers hold up another key's webhooks", async () => {
    const newKey = async () => issueApiKey(database.db, vault, (await createUser(database.db, { email: `${newId('usr')}@example.com` })).id);
    const [slow, prompt] = [await newKey(), await newKey()];
    const stalled: { end(): void }[] = [];
    let released = false;
    // Takes the request and never answers (until the test ends), like a receiver that hangs.
    const hang = receiverUrl('/hangs', (_req, res) => (released ? res.end() : void stalled.push(res)));
    for (let i = 0; i < 4; i++) await finishSwap(await createSwap(hang, slow.id), 'done');
    await eventually(async () => (requestsTo('/hangs').length > 0 ? true : undefined), 'the hanging receiver to be called');

    const swap = await createSwap(receiverUrl('/prompt', verifyingReceiver(prompt.key)), prompt.id);
    await finishSwap(swap, 'done');
    try {
      await settled(swap.id, 'delivered', 1);
      // Four events wait for that receiver, yet it holds one delivery slot only: the other
      // key's webhook went through while the first attempt still hung.
      expect(requestsTo('/hangs')).toHaveLength(1);
    } finally {
      released = true;
      for (const response of stalled) response.end();
    }
  });

  it('does not follow a redirect: the 3xx is a failed attempt and the new location gets nothing', async () => {
    receiverUrl('/moved-here', verifyingReceiver(key.key));
    const swap = await createSwap(receiverUrl('/moved', redirectTo('/moved-here', 307)));
    await finishSwap(swap, 'done');

    const delivery = await settled(swap.id, 'failed', MAX_ATTEMPTS);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 307, error: expect.stringContaining('redirect not followed') });
    expect(requestsTo('/moved')).toHaveLength(MAX_ATTEMPTS);
    expect(requestsTo('/moved-here')).toEqual([]);
  });

  it('records a receiver the fetch guard refuses as attempts without a status', async () => {
    const swap = await createSwap(`https://internal.receiver.test:${hooks.receiver.port}/hook`);
    await finishSwap(swap, 'done');

    const delivery = await settled(swap.id, 'failed', MAX_ATTEMPTS);
    for (const attempt of delivery.attempts) {
      expect(attempt).toMatchObject({ statusCode: null, error: expect.stringMatching(/^refused_address: /) });
    }
  });
});

describe('webhook signing keys and redelivery', () => {
  it('still signs with a key revoked after the swap was created, since receivers hold that key', async () => {
    const user = await createUser(database.db, { email: 'revoked@example.com' });
    const revoked = await issueApiKey(database.db, vault, user.id);
    const path = '/revoked-key';
    const swap = await createSwap(receiverUrl(path, verifyingReceiver(revoked.key)), revoked.id);
    await revokeApiKey(database.db, revoked.id);
    await finishSwap(swap, 'done');

    await settled(swap.id, 'delivered', 1);
    expect(requestsTo(path)).toHaveLength(1);
  });

  it('redelivers an event with the same id and body, the next attempt number and a fresh signature', async () => {
    const path = '/redeliver';
    const swap = await createSwap(receiverUrl(path, verifyingReceiver(key.key)));
    const { eventId } = await finishSwap(swap, 'done');
    await settled(swap.id, 'delivered', 1);

    expect(await redeliver(database.db, boss, eventId!)).toBe(true);
    const delivery = await settled(swap.id, 'delivered', 2);
    expect(delivery.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 200],
      [2, 200],
    ]);
    const [first, second] = requestsTo(path);
    expect(second!.headers[WEBHOOK_EVENT_ID_HEADER]).toBe(eventId);
    expect(second!.headers[WEBHOOK_ATTEMPT_HEADER]).toBe('2');
    expect(second!.body.equals(first!.body)).toBe(true);
    verifyWebhook(second!.body, second!.headers[WEBHOOK_SIGNATURE_HEADER], key.key);
  });

  it('redelivers a failed event once, outside the schedule, and marks it delivered when that works', async () => {
    let receiverUp = false;
    const path = '/recovers';
    const answer = verifyingReceiver(key.key);
    const swap = await createSwap(receiverUrl(path, (req, res, body) => (receiverUp ? answer(req, res, body) : res.writeHead(502).end())));
    const { eventId } = await finishSwap(swap, 'done');
    await settled(swap.id, 'failed', MAX_ATTEMPTS);

    receiverUp = true;
    await redeliver(database.db, boss, eventId!);
    const delivery = await settled(swap.id, 'delivered', MAX_ATTEMPTS + 1);
    expect(delivery.attempts.at(-1)).toMatchObject({ attempt: MAX_ATTEMPTS + 1, statusCode: 200 });
  });

  it('answers false for an event that does not exist', async () => {
    expect(await redeliver(database.db, boss, newId('evt'))).toBe(false);
  });
});
