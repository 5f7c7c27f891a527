import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdUntilReleased, until } from '@doppel/core/testing/held-route';
import { demoPhoto, sendBytes } from '../support/intake-world';
import { startProcessIntake, type ProcessIntake } from '../support/process-intake';
import { startServerProcess } from '../support/server-process';

let intake: ProcessIntake;
const heldTarget = holdUntilReleased(sendBytes(demoPhoto(2)));

beforeAll(async () => {
  intake = await startProcessIntake(
    { '/face.jpg': sendBytes(demoPhoto(1)), '/group.jpg': sendBytes(demoPhoto(2)), '/held.jpg': heldTarget.route },
    // Two creates at a time per key: the one killed mid-flight would block half of them.
    { DOPPEL_ROLE: 'api', DOPPEL_CONCURRENT_CREATES: '2' },
  );
});
afterAll(async () => {
  heldTarget.release();
  await intake?.close();
});

describe('kill -9 in the middle of a create', () => {
  it('frees its slot and its Idempotency-Key at once: after a restart the key creates, and the retry runs', async () => {
    const account = await intake.createAccount({ credits: 10 });
    const idempotencyKey = { 'idempotency-key': 'order-crash-1' };
    const first = await startServerProcess(intake.world.env);
    const cut = intake.create(first.url, account.apiKey, '/held.jpg', idempotencyKey).catch((error: unknown) => error);
    await until(() => heldTarget.held === 1, 'the create to be fetching its target');
    const claims = await intake.database.db.selectFrom('create_reservations').select('id').where('api_key_id', '=', account.apiKeyId).execute();
    expect(claims).toHaveLength(1);

    await first.kill();
    expect(await cut).toBeInstanceOf(Error);
    heldTarget.release();

    const second = await startServerProcess(intake.world.env);
    try {
      // The retry with the same key does not wait on the dead claim: it runs the create.
      const retried = await intake.create(second.url, account.apiKey, '/held.jpg', idempotencyKey);
      expect([retried.status, retried.body]).toMatchObject([201, { status: 'queued' }]);
      // With the retry's swap holding one slot, the dead create's slot is free for another.
      const other = await intake.create(second.url, account.apiKey, '/group.jpg');
      expect(other.status).toBe(201);
      const replayed = await intake.create(second.url, account.apiKey, '/held.jpg', idempotencyKey);
      expect([replayed.status, replayed.body.id]).toEqual([201, retried.body.id]);
    } finally {
      await second.kill();
    }
  });
});
