import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import { claimScan, recordScan, scanId } from '@doppel/core/scans/content-scans';
import { scanKey } from '@doppel/core/storage/keys';
import type { TestAccount, TestApp, TestRequest } from '../support/app';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { faceDetectRow } from '../support/task-rows';

// What a request costs in round trips to PostgreSQL, counted where the app's pool meets the
// database (every query its connections send), against the real database.

let world: IntakeWorld;
let t: TestApp;
let account: TestAccount;
const target = demoPhoto(2);
const source = demoPhoto(1);

beforeAll(async () => {
  world = await startIntakeWorld({ '/target.jpg': sendBytes(target), '/source.jpg': sendBytes(source) });
  t = await world.startApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
  account = await t.createAccount({ credits: 100 });
  // Both inputs already found clean for this user, as after an earlier create of the same photos.
  for (const bytes of [target, source]) {
    const sha256 = scanId(account.userId, bytes);
    await t.db.transaction().execute((trx) => claimScan(trx, { sha256, kind: 'jpeg', storageKey: scanKey(sha256, 'jpeg') }));
    await recordScan(t.db, sha256, { status: 'clean', reason: null });
  }
  // The key is looked up once, then known to the process.
  expect((await t.request('/api/v1/me', { key: account.apiKey })).status).toBe(200);
});

afterAll(async () => {
  await t?.close();
  await world?.close();
});

/** The response, and the round trips the app made to PostgreSQL while answering it. */
async function counted(path: string, init: TestRequest = {}) {
  const before = t.database.roundTrips();
  const response = await t.request(path, { key: account.apiKey, ...init });
  return { response, roundTrips: t.database.roundTrips() - before };
}

const createSwap = (headers: Record<string, string> = {}) =>
  counted('/api/v1/swaps', {
    method: 'POST',
    headers,
    json: { type: 'image', target_url: world.url('/target.jpg'), source_url: world.url('/source.jpg') },
  });

describe('round trips to PostgreSQL per request', () => {
  it('an authenticated GET costs exactly one once its key is known: the rate limit and the read in one statement', async () => {
    const swap = (await createSwap()).response.body;
    const task = await insertFaceDetectTask(t.db, faceDetectRow(account));

    for (const path of ['/api/v1/me', `/api/v1/swaps/${swap.id}`, '/api/v1/swaps?limit=20', `/api/v1/face-detect/${task.id}`]) {
      const { response, roundTrips } = await counted(path);
      expect(response.status, path).toBe(200);
      expect(roundTrips, path).toBe(1);
    }
  });

  it('a GET of a task that is not there costs one as well', async () => {
    for (const path of ['/api/v1/swaps/swp_neverExisted000000000', '/api/v1/face-detect/fdt_neverExisted000000000']) {
      const { response, roundTrips } = await counted(path);
      expect(response.status, path).toBe(404);
      expect(roundTrips, path).toBe(1);
    }
  });

  it('a create with inputs already scanned costs at most 4', async () => {
    const { response, roundTrips } = await createSwap();
    expect(response.status).toBe(201);
    expect(roundTrips).toBeLessThanOrEqual(4);
  });

  it('a create with an Idempotency-Key costs at most 8, and its replay at most 4', async () => {
    const headers = { 'idempotency-key': `round-trips-${Date.now()}` };
    const created = await createSwap(headers);
    expect(created.response.status).toBe(201);
    expect(created.roundTrips).toBeLessThanOrEqual(8);

    const replayed = await createSwap(headers);
    expect(replayed.response.status).toBe(201);
    expect(replayed.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.roundTrips).toBeLessThanOrEqual(4);
  });
});
