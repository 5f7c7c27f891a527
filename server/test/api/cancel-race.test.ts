import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimSwap, findSwap, insertSwap, startSwapProcessing } from '@doppel/core/tasks/swaps';
import { startTestApp, type TestAccount, type TestApp } from '../support/app';
import { swapRow } from '../support/task-rows';

const ROUNDS = 50;
let t: TestApp;
let owner: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '10000' } });
  owner = await t.createAccount();
});
afterAll(() => t.close());

const cancel = (id: string) => t.request(`/api/v1/swaps/${id}`, { method: 'DELETE', key: owner.apiKey });

describe('a cancel racing the worker', () => {
  it('never loses to the pick-up of a queued swap: a claimed swap is still preparing, so cancelable', async () => {
    const rows = await Promise.all(Array.from({ length: ROUNDS }, () => insertSwap(t.db, swapRow(owner))));
    const outcomes = await Promise.all(rows.map((row) => Promise.all([cancel(row.id), claimSwap(t.db, row.id)])));
    for (const [index, [canceled, claimed]] of outcomes.entries()) {
      expect(canceled.status).toBe(200);
      expect(canceled.body.status).toBe('canceled');
      // Either the cancel came first and the claim found nothing, or the claim took the
      // queued swap into preparing and the cancel then took it from there.
      if (claimed) expect(claimed.status).toBe('preparing');
      expect((await findSwap(t.db, owner.apiKeyId, rows[index]!.id))!.status).toBe('canceled');
    }
  });

  it('has exactly one winner when the worker starts processing a preparing swap', async () => {
    const rows = await Promise.all(
      Array.from({ length: ROUNDS }, () => insertSwap(t.db, swapRow(owner, { status: 'preparing' }))),
    );
    const outcomes = await Promise.all(
      rows.map((row) => Promise.all([cancel(row.id), startSwapProcessing(t.db, row.id)])),
    );
    const winners = { cancel: 0, worker: 0 };
    for (const [index, [canceled, started]] of outcomes.entries()) {
      const final = (await findSwap(t.db, owner.apiKeyId, rows[index]!.id))!.status;
      expect(canceled.status).toBe(200);
      if (started) {
        winners.worker++;
        expect(canceled.body.status).toBe('processing');
        expect(final).toBe('processing');
      } else {
        winners.cancel++;
        expect(canceled.body.status).toBe('canceled');
        expect(final).toBe('canceled');
      }
    }
    expect(winners.cancel + winners.worker).toBe(ROUNDS);
  });

  it('lets a claim find nothing once the swap is canceled', async () => {
    const row = await insertSwap(t.db, swapRow(owner));
    expect((await cancel(row.id)).body.status).toBe('canceled');
    expect(await claimSwap(t.db, row.id)).toBeNull();
    expect(await startSwapProcessing(t.db, row.id)).toBeNull();
  });
});
