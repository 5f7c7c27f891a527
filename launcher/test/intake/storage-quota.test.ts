import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances } from '@doppel/core/accounts/credits';
import type { SwapInputs } from '@doppel/core/db/stored-inputs';
import { runMaintenance } from '@doppel/worker';
import { thumbnailKey } from '@doppel/core/storage/keys';
import { storedBytes } from '@doppel/core/storage/stored-files';
import type { TestApp } from '@doppel/server/testing/app';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { eventually, finishedDetection, finishedSwap, stored } from '@doppel/server/testing/poll';

const MiB = 1024 * 1024;
const [face, group, bigGroup] = [demoPhoto(1), demoPhoto(2), demoPhoto(3)];

let world: IntakeWorld;
/** Scans, no engine: tasks stay queued with their inputs, so the bytes stored stay put. */
let quota: TestApp;
/** The whole engine, for the bytes of results and thumbnails. */
let engine: TestApp;

beforeAll(async () => {
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(face),
    '/group.jpg': sendBytes(group),
    '/big-group.jpg': sendBytes(bigGroup),
  });
  const env = { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' };
  quota = await world.startApp({ scan: true, env: { ...env, DOPPEL_STORAGE_QUOTA_BYTES: String(MiB) } });
  engine = await world.startApp({ engine: true, env });
});
afterAll(async () => {
  await quota?.close();
  await engine?.close();
  await world?.close();
});

const createImageSwap = (t: TestApp, key: string, target = '/big-group.jpg') =>
  t.request('/api/v1/swaps', { method: 'POST', key, json: { type: 'image', source_url: world.url('/face.jpg'), target_url: world.url(target) } });

/** Bytes of the files storage holds under these keys (a missing one counts 0). */
async function sizeOf(t: TestApp, keys: string[]): Promise<number> {
  const sizes = await Promise.all(keys.map((key) => t.services.storage.get(key).then((b) => b.length, () => 0)));
  return sizes.reduce((a, b) => a + b, 0);
}

describe('the per-user storage quota', () => {
  it('refuses the create that would pass it with payload_too_large, storing and charging nothing', async () => {
    const account = await quota.createAccount({ credits: 10 });
    const perSwap = face.length + bigGroup.length;
    // Two swaps' inputs fit in 1 MiB, a third's do not.
    expect([2 * perSwap <= MiB, 3 * perSwap > MiB]).toEqual([true, true]);
    for (let i = 0; i < 2; i++) expect((await createImageSwap(quota, account.apiKey)).status).toBe(201);
    expect(await storedBytes(quota.db, account.userId)).toBe(2 * perSwap);

    const refused = await createImageSwap(quota, account.apiKey);
    expect([refused.status, refused.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(refused.body.error.message).toMatch(/^Storage quota: with these inputs this account would keep 1\.0 MiB, over its 1\.0 MiB\./);
    expect(refused.body.error.request_id).toEqual(expect.any(String));
    expect(await storedBytes(quota.db, account.userId)).toBe(2 * perSwap);
    expect((await getBalances(quota.db, account.userId)).total).toBe(8);
    const swaps = await quota.db.selectFrom('swaps').select('inputs').where('user_id', '=', account.userId).execute();
    expect(swaps).toHaveLength(2);
    // What the refused create had stored is gone: storage holds exactly the two swaps' inputs.
    const keys = swaps.flatMap(({ inputs }) => [inputs.target.key, ...inputs.sources.map((s) => s.key)]);
    expect(await sizeOf(quota, keys)).toBe(2 * perSwap);
  });

  it('lets only as many simultaneous creates through as there is room for', async () => {
    const account = await quota.createAccount({ credits: 10 });
    const perSwap = face.length + bigGroup.length;
    // Scanned once here: the simultaneous creates below then all pass the check before fetching.
    expect((await createImageSwap(quota, account.apiKey)).status).toBe(201);

    const answers = await Promise.all(Array.from({ length: 5 }, () => createImageSwap(quota, account.apiKey)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 413, 413, 413, 413]);
    expect(await storedBytes(quota.db, account.userId)).toBe(2 * perSwap);
    expect((await getBalances(quota.db, account.userId)).total).toBe(8);
  });

  it("holds a free face detection to it too, and never touches another user's room", async () => {
    const full = await quota.createAccount({ credits: 10 });
    for (let i = 0; i < 2; i++) expect((await createImageSwap(quota, full.apiKey)).status).toBe(201);
    const detectBigGroup = () => quota.request('/api/v1/face-detect', { method: 'POST', key: full.apiKey, json: { target_url: world.url('/big-group.jpg') } });
    expect((await detectBigGroup()).status).toBe(202);
    const refused = await detectBigGroup();
    expect([refused.status, refused.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(await storedBytes(quota.db, full.userId)).toBe(2 * (face.length + bigGroup.length) + bigGroup.length);

    const other = await quota.createAccount({ credits: 10 });
    expect((await createImageSwap(quota, other.apiKey)).status).toBe(201);
    const otherDetect = await quota.request('/api/v1/face-detect', { method: 'POST', key: other.apiKey, json: { target_url: world.url('/group.jpg') } });
    expect(otherDetect.status).toBe(202);
    expect(await storedBytes(quota.db, other.userId)).toBe(face.length + bigGroup.length + group.length);
  });

  it('refuses a user already over it before fetching anything', async () => {
    // The same database under a larger quota (as before an operator lowered it): the user keeps more than 1 MiB.
    const roomy = await world.startApp({ shareWith: quota, scan: true, env: { DOPPEL_STORAGE_QUOTA_BYTES: String(2 * MiB) } });
    try {
      const account = await quota.createAccount({ credits: 10 });
      for (let i = 0; i < 3; i++) expect((await createImageSwap(roomy, account.apiKey)).status).toBe(201);
      expect(await storedBytes(quota.db, account.userId)).toBeGreaterThan(MiB);
      const before = world.media.requests.length;
      const refused = await createImageSwap(quota, account.apiKey, '/group.jpg');
      expect([refused.status, refused.body.error.code]).toEqual([413, 'payload_too_large']);
      expect(world.media.requests.length).toBe(before);
    } finally {
      await roomy.close();
    }
  });
});

describe('the bytes counted per user', () => {
  it('count the inputs at create, the result and thumbnails in their place once the task ends, and nothing after retention', async () => {
    const account = await engine.createAccount({ credits: 5 });
    const created = await createImageSwap(engine, account.apiKey, '/group.jpg');
    expect(created.status).toBe(201);
    expect(await storedBytes(engine.db, account.userId)).toBe(face.length + group.length);

    const detection = await engine.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/group.jpg') } });
    expect(detection.status).toBe(202);
    expect(await storedBytes(engine.db, account.userId)).toBe(face.length + 2 * group.length);

    expect((await finishedSwap(engine, account.apiKey, created.body.id)).status).toBe('done');
    expect((await finishedDetection(engine, account.apiKey, detection.body.task_id)).status).toBe('done');
    const swap = await engine.db.selectFrom('swaps').select(['inputs', 'result_key']).where('id', '=', created.body.id).executeTakeFirstOrThrow();
    const inputs: SwapInputs = swap.inputs;
    const detectInput = (await engine.db.selectFrom('face_detect_tasks').select('target').where('id', '=', detection.body.task_id).executeTakeFirstOrThrow()).target;
    for (const key of [inputs.target.key, inputs.sources[0]!.key, detectInput.key]) {
      await eventually(`input ${key} retired`, async () => !(await stored(engine, key)));
    }

    const kept = [
      swap.result_key!,
      thumbnailKey(created.body.id, 'target'),
      thumbnailKey(created.body.id, 'source1'),
      thumbnailKey(detection.body.task_id, 'target'),
    ];
    const keptBytes = await sizeOf(engine, kept);
    expect(keptBytes).toBeGreaterThan(0);
    expect(keptBytes).toBeLessThan(face.length + 2 * group.length);
    // The files go first and the count after them (a count never below what is stored), so the count is waited for too.
    await eventually('stored bytes count what is kept', async () => (await storedBytes(engine.db, account.userId)) === keptBytes);

    await sql`update swaps set created_at = now() - interval '31 days' where id = ${created.body.id}`.execute(engine.db);
    await sql`update face_detect_tasks set created_at = now() - interval '31 days' where id = ${detection.body.task_id}`.execute(engine.db);
    await runMaintenance({ db: engine.db, storage: engine.services.storage, config: engine.config, boss: engine.services.boss });
    expect(await sizeOf(engine, kept)).toBe(0);
    expect(await storedBytes(engine.db, account.userId)).toBe(0);
  });
});
