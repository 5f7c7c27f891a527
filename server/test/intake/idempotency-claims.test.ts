import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimIdempotencyKey, finishIdempotentCreate, releaseIdempotencyKey, type Claim } from '@doppel/core/intake/idempotency';
import { startTestApp, type TestAccount, type TestApp } from '../support/app';

let t: TestApp;
let account: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  account = await t.createAccount();
});
afterAll(() => t.close());

/** An instance id no live process holds: a process that has died. */
const DEAD_INSTANCE = 1;
const ownerToken = (claim: Claim) => (claim.kind === 'owner' ? claim.token : '');

describe('an Idempotency-Key claim', () => {
  const claim = (key: string, ownerInstance: number, maxWaitMs = 0) =>
    claimIdempotencyKey(t.db, { apiKeyId: account.apiKeyId, key, ownerInstance }, 'hash', { maxWaitMs });

  it('held by a live process makes a retry wait, then answer api_temporarily_disabled', async () => {
    expect((await claim('live', t.services.instance.id)).kind).toBe('owner');
    await expect(claim('live', t.services.instance.id, 300)).rejects.toMatchObject({ code: 'api_temporarily_disabled' });
  });

  it('held by a dead process is taken over at once, and the first owner can no longer finish or free it', async () => {
    const dead = await claim('crashed', DEAD_INSTANCE);
    const taken = await claim('crashed', t.services.instance.id);
    expect(taken.kind).toBe('owner');

    const first = { apiKeyId: account.apiKeyId, key: 'crashed', token: ownerToken(dead) };
    await expect(finishIdempotentCreate(t.db, first, { status: 201, body: { id: 'from-the-first' } })).rejects.toMatchObject({
      code: 'api_temporarily_disabled',
    });
    await releaseIdempotencyKey(t.db, first);

    const second = { ...first, token: ownerToken(taken) };
    await finishIdempotentCreate(t.db, second, { status: 201, body: { id: 'from-the-retry' } });
    expect(await claim('crashed', t.services.instance.id)).toEqual({ kind: 'replay', response: { status: 201, body: { id: 'from-the-retry' } } });
  });
});
