import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances, ledgerTotals } from '@doppel/core/accounts/credits';
import { cutDatabase, type TestApp } from '@doppel/server/testing/app';
import { until } from '@doppel/core/testing/held-route';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import type { MediaRoute } from '@doppel/core/testing/media-server';

let world: IntakeWorld;
let t: TestApp;
const acceptWebhook: MediaRoute = (_req, res) => res.writeHead(204).end();

beforeAll(async () => {
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(demoPhoto(1)),
    '/group.jpg': sendBytes(demoPhoto(2)),
    '/hook': acceptWebhook,
  });
  t = await world.startApp({ engine: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '10000' } });
});
afterAll(async () => {
  await t?.close();
  await world?.close();
});

const swapBody = () => ({
  type: 'image',
  source_url: world.url('/face.jpg'),
  target_url: world.url('/group.jpg'),
  webhook_url: world.media.url('hooks.media.test', '/hook'),
});

const expectTemporarilyDisabled = (response: Awaited<ReturnType<TestApp['request']>>) => {
  expect([response.status, response.body?.error?.code, response.headers.get('retry-after')]).toEqual([503, 'api_temporarily_disabled', '5']);
  expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
};

describe('a database outage under load', () => {
  it('answers 503 api_temporarily_disabled with Retry-After throughout, then recovers with nothing lost', { timeout: 240_000 }, async () => {
    const account = await t.createAccount({ credits: 100 });
    const create = (key: string) =>
      t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: swapBody(), headers: { 'idempotency-key': key } });
    const before = await Promise.all(['before-1', 'before-2'].map(create));
    expect(before.map((r) => r.status)).toEqual([201, 201]);

    // Creates and reads in flight while the database goes away.
    const duringKeys = ['during-1', 'during-2', 'during-3', 'during-4'];
    const during = Promise.all([...duringKeys.map(create), t.request(`/api/v1/swaps/${before[0]!.body.id}`, { key: account.apiKey })]);
    const outage = await cutDatabase(t.database);
    for (const response of await during) expect([200, 201, 503]).toContain(response.status);

    expectTemporarilyDisabled(await t.request('/api/v1/me', { key: account.apiKey }));
    expectTemporarilyDisabled(await t.request(`/api/v1/swaps/${before[0]!.body.id}`, { key: account.apiKey }));
    expectTemporarilyDisabled(await create('during-outage'));
    expect((await t.request('/readyz')).status).toBe(503);
    // The process can recover by itself: it stays alive for the orchestrator.
    expect((await t.request('/healthz')).status).toBe(200);

    await outage.restore();
    await until(async () => (await t.request('/readyz')).status === 200, 'readiness after the outage');
    // Every create the outage refused or cut short runs once when retried with its key.
    const retried = await Promise.all([...duringKeys, 'during-outage'].map(create));
    expect(retried.map((r) => r.status)).toEqual(Array(5).fill(201));
    const ids = [...before, ...retried].map((r) => r.body.id as string);
    expect(new Set(ids).size).toBe(7);

    await until(
      async () => (await t.db.selectFrom('swaps').select('id').where('user_id', '=', account.userId).where('status', 'in', ['done', 'failed']).execute()).length === 7,
      'every swap to finish',
      180_000,
    );
    await until(
      async () => (await t.db.selectFrom('webhook_events').select('id').where('swap_id', 'in', ids).where('status', '=', 'delivered').execute()).length === 7,
      'every webhook to be delivered',
      60_000,
    );

    const swaps = await t.db.selectFrom('swaps').select(['id', 'status', 'credit_cost', 'refunded']).where('user_id', '=', account.userId).execute();
    expect(swaps.map((s) => s.id).sort()).toEqual([...ids].sort());
    // The books: the balance is what the ledger says, one charge per swap and a refund only for a failed one.
    const balances = await getBalances(t.db, account.userId);
    const ledger = await ledgerTotals(t.db, account.userId);
    expect(balances.total).toBe(ledger.subscription + ledger.monthly + ledger.permanent);
    const charges = await t.db.selectFrom('credit_ledger').select(['swap_id', 'reason']).where('user_id', '=', account.userId).where('reason', '!=', 'grant').execute();
    for (const swap of swaps) {
      expect(charges.filter((c) => c.swap_id === swap.id && c.reason === 'charge')).toHaveLength(1);
      expect(charges.filter((c) => c.swap_id === swap.id && c.reason === 'refund')).toHaveLength(swap.status === 'failed' ? 1 : 0);
    }
    // Each webhook reached the receiver exactly once.
    const deliveries = world.media.requests.filter((r) => r.path === '/hook').map((r) => JSON.parse(r.body.toString()).id as string);
    expect(deliveries.sort()).toEqual([...ids].sort());
  });
});
