import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances, grantCredits } from '@doppel/core/accounts/credits';
import { chargeCredits } from '@doppel/core/accounts/credits';
import { insertSwap } from '@doppel/core/tasks/swaps';
import { swapRow } from '../support/task-rows';
import { startTestApp, type TestApp } from '../support/app';
import { dashboardRequest, invitedUser, type DashboardUser } from '../support/dashboard-user';

let t: TestApp;
let user: DashboardUser;
const account = () => ({ userId: user.userId, apiKeyId: user.apiKeyId, apiKey: user.apiKey });

beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '7', DOPPEL_RATE_LIMIT_PER_DAY: '70' } });
  user = await invitedUser(t);
  await grantCredits(t.db, user.userId, 'permanent', 50);
});
afterAll(async () => {
  await t?.close();
});

async function chargedSwap(fields: Parameters<typeof swapRow>[1]) {
  return t.db.transaction().execute(async (trx) => {
    const swap = await insertSwap(trx, swapRow(account(), fields));
    await chargeCredits(trx, user.userId, swap.id, swap.credit_cost);
    return swap;
  });
}

describe('the swaps list', () => {
  it('filters by status and type and pages newest first without repeats', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await chargedSwap({ type: i % 2 ? 'gif' : 'image', status: i < 3 ? 'done' : 'failed' }));
    const as = { cookie: user.cookie };

    const gifs = await dashboardRequest(t, '/swaps?type=gif', as);
    expect(gifs.body.data.map((s: { id: string }) => s.id).sort()).toEqual(made.filter((_, i) => i % 2).map((s) => s.id).sort());
    const failed = await dashboardRequest(t, '/swaps?status=failed', as);
    expect(failed.body.data.map((s: { status: string }) => s.status)).toEqual(['failed', 'failed']);

    const first = await dashboardRequest(t, '/swaps?limit=2', as);
    const second = await dashboardRequest(t, `/swaps?limit=2&cursor=${first.body.next_cursor}`, as);
    const third = await dashboardRequest(t, `/swaps?limit=2&cursor=${second.body.next_cursor}`, as);
    const seen = [...first.body.data, ...second.body.data, ...third.body.data].map((s: { id: string }) => s.id);
    expect(seen).toEqual([...made].reverse().map((s) => s.id));
    expect(third.body.next_cursor).toBeNull();
  });
});

describe('cancel', () => {
  it('cancels a queued swap and gives its credits back; a finished one stays as it is', async () => {
    const before = (await getBalances(t.db, user.userId)).total;
    const queued = await chargedSwap({ status: 'queued', credit_cost: 3 });
    expect((await getBalances(t.db, user.userId)).total).toBe(before - 3);
    const canceled = await dashboardRequest(t, `/swaps/${queued.id}/cancel`, { method: 'POST', cookie: user.cookie, csrf: user.csrf, json: {} });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    expect((await getBalances(t.db, user.userId)).total).toBe(before);

    const done = await chargedSwap({ status: 'done' });
    const again = await dashboardRequest(t, `/swaps/${done.id}/cancel`, { method: 'POST', cookie: user.cookie, csrf: user.csrf, json: {} });
    expect(again.body.status).toBe('done');
    const detail = await dashboardRequest(t, `/swaps/${done.id}`, { cookie: user.cookie });
    expect(detail.body.cancelable).toBe(false);
  });
});

describe('the overview', () => {
  it("shows balances, each live key's budget, and today's swaps and credits in a 30-day series", async () => {
    for (let i = 0; i < 3; i++) expect((await t.request('/api/v1/me', { key: user.apiKey })).status).toBe(200);
    const overview = await dashboardRequest(t, '/overview', { cookie: user.cookie });
    expect(overview.status).toBe(200);
    const { credits, budgets, daily, latest_swaps } = overview.body;
    expect(credits).toEqual(await getBalances(t.db, user.userId));
    expect(budgets).toEqual([
      { key_id: user.apiKeyId, key_name: null, prefix: expect.any(String), minute: { used: 3, limit: 7 }, today: { used: 3, limit: 70 } },
    ]);
    expect(daily).toHaveLength(30);
    expect(daily.at(-1).day).toBe(new Date().toISOString().slice(0, 10));
    const swapsToday = (await dashboardRequest(t, '/swaps?limit=100', { cookie: user.cookie })).body.data;
    expect(daily.at(-1).swaps).toBe(swapsToday.length);
    // Spent: every charge, less the canceled swap's refund.
    const charged = swapsToday.filter((s: { status: string }) => s.status !== 'canceled');
    expect(daily.at(-1).credits).toBe(charged.reduce((n: number, s: { credit_cost: number }) => n + s.credit_cost, 0));
    expect(latest_swaps).toHaveLength(5);
  });
});
