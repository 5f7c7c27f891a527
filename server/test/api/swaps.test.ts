import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '@doppel/core/accounts/api-keys';
import { insertFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import { insertSwap } from '@doppel/core/tasks/swaps';
import { startTestApp, type TestAccount, type TestApp, type TestResponse } from '../support/app';
import { faceDetectRow, swapRow } from '../support/task-rows';

let t: TestApp;
let owner: TestAccount;
let stranger: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '10000' } });
  owner = await t.createAccount();
  stranger = await t.createAccount();
});
afterAll(() => t.close());

const withoutRequestId = (response: TestResponse) =>
  response.text.replace(response.headers.get('x-request-id')!, '<request-id>');

describe('GET /swaps/{taskId}', () => {
  it('returns the swap as a PublicSwap', async () => {
    const row = await insertSwap(
      t.db,
      swapRow(owner, {
        type: 'gif',
        status: 'done',
        credit_cost: 3,
        progress: 100,
        result_url: 'https://cdn.example.com/r.gif',
        metadata: JSON.stringify({ order: 42, tags: ['a'] }),
        webhook_url: 'https://hooks.example.com/doppel',
        created_at: new Date('2026-03-01T10:00:00.123Z'),
      }),
    );
    const response = await t.request(`/api/v1/swaps/${row.id}`, { key: owner.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: row.id,
      type: 'gif',
      status: 'done',
      credit_cost: 3,
      progress: 100,
      created_at: '2026-03-01T10:00:00.123Z',
      result_url: 'https://cdn.example.com/r.gif',
      error: null,
      metadata: { order: 42, tags: ['a'] },
      webhook_url: 'https://hooks.example.com/doppel',
    });
  });

  it("answers a foreign key's swap exactly like a missing one", async () => {
    const row = await insertSwap(t.db, swapRow(owner));
    const foreign = await t.request(`/api/v1/swaps/${row.id}`, { key: stranger.apiKey });
    const missing = await t.request('/api/v1/swaps/swp_neverExisted000000000', { key: stranger.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(withoutRequestId(foreign)).toBe(withoutRequestId(missing));
  });

  it("answers not_found for a swap of another key of the same user", async () => {
    const secondKey = await issueApiKey(t.db, t.vault, owner.userId);
    const row = await insertSwap(t.db, swapRow({ ...owner, apiKeyId: secondKey.id }));
    expect((await t.request(`/api/v1/swaps/${row.id}`, { key: secondKey.key })).status).toBe(200);
    expect((await t.request(`/api/v1/swaps/${row.id}`, { key: owner.apiKey })).status).toBe(404);
  });
});

describe('DELETE /swaps/{taskId}', () => {
  it.each(['queued', 'preparing'] as const)('cancels a %s swap', async (status) => {
    const row = await insertSwap(t.db, swapRow(owner, { status }));
    const response = await t.request(`/api/v1/swaps/${row.id}`, { method: 'DELETE', key: owner.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: row.id, status: 'canceled' });
    const again = await t.request(`/api/v1/swaps/${row.id}`, { key: owner.apiKey });
    expect(again.body.status).toBe('canceled');
  });

  it.each(['processing', 'done', 'failed', 'canceled'] as const)(
    'returns a %s swap unchanged with 200, never 409',
    async (status) => {
      const row = await insertSwap(t.db, swapRow(owner, { status, progress: status === 'done' ? 100 : 40 }));
      const before = await t.request(`/api/v1/swaps/${row.id}`, { key: owner.apiKey });
      const response = await t.request(`/api/v1/swaps/${row.id}`, { method: 'DELETE', key: owner.apiKey });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(before.body);
    },
  );

  it("answers a foreign key's swap exactly like a missing one, and leaves it alone", async () => {
    const row = await insertSwap(t.db, swapRow(owner));
    const foreign = await t.request(`/api/v1/swaps/${row.id}`, { method: 'DELETE', key: stranger.apiKey });
    const missing = await t.request('/api/v1/swaps/swp_neverExisted000000000', { method: 'DELETE', key: stranger.apiKey });
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign)).toBe(withoutRequestId(missing));
    expect((await t.request(`/api/v1/swaps/${row.id}`, { key: owner.apiKey })).body.status).toBe('queued');
  });
});

describe('GET /face-detect/{taskId}', () => {
  it('returns a done task with its faces', async () => {
    const faces = [
      { index: 0, bounding_box: { x: 10, y: 20, width: 100, height: 120 } },
      { index: 1, bounding_box: { x: 300.5, y: 40, width: 90, height: 110 } },
    ];
    const row = await insertFaceDetectTask(
      t.db,
      faceDetectRow(owner, {
        status: 'done',
        faces: JSON.stringify(faces),
        faces_detected: 2,
        created_at: new Date('2026-03-01T10:00:00.000Z'),
        completed_at: new Date('2026-03-01T10:00:01.500Z'),
      }),
    );
    const response = await t.request(`/api/v1/face-detect/${row.id}`, { key: owner.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      task_id: row.id,
      status: 'done',
      faces_detected: 2,
      faces,
      error: null,
      created_at: '2026-03-01T10:00:00.000Z',
      completed_at: '2026-03-01T10:00:01.500Z',
    });
  });

  it('returns a queued task with nothing found yet', async () => {
    const row = await insertFaceDetectTask(t.db, faceDetectRow(owner));
    const response = await t.request(`/api/v1/face-detect/${row.id}`, { key: owner.apiKey });
    expect(response.body).toMatchObject({ task_id: row.id, status: 'queued', faces: null, faces_detected: null, completed_at: null });
  });

  it("answers a foreign key's task exactly like a missing one", async () => {
    const row = await insertFaceDetectTask(t.db, faceDetectRow(owner));
    const foreign = await t.request(`/api/v1/face-detect/${row.id}`, { key: stranger.apiKey });
    const missing = await t.request('/api/v1/face-detect/fdt_neverExisted000000000', { key: stranger.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    expect(withoutRequestId(foreign)).toBe(withoutRequestId(missing));
  });

  it('answers not_found for a task of another key of the same user', async () => {
    const secondKey = await issueApiKey(t.db, t.vault, owner.userId);
    const row = await insertFaceDetectTask(t.db, faceDetectRow({ ...owner, apiKeyId: secondKey.id }));
    expect((await t.request(`/api/v1/face-detect/${row.id}`, { key: secondKey.key })).status).toBe(200);
    const other = await t.request(`/api/v1/face-detect/${row.id}`, { key: owner.apiKey });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
  });

  it('returns a failed task with its error', async () => {
    const row = await insertFaceDetectTask(
      t.db,
      faceDetectRow(owner, { status: 'failed', error: 'the target could not be decoded', completed_at: new Date('2026-03-01T10:00:02.000Z') }),
    );
    const response = await t.request(`/api/v1/face-detect/${row.id}`, { key: owner.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      task_id: row.id,
      status: 'failed',
      faces: null,
      faces_detected: null,
      error: 'the target could not be decoded',
      completed_at: '2026-03-01T10:00:02.000Z',
    });
  });

  it('does not find a swap id under face-detect, nor a face-detect id under swaps', async () => {
    const swap = await insertSwap(t.db, swapRow(owner));
    const task = await insertFaceDetectTask(t.db, faceDetectRow(owner));
    expect((await t.request(`/api/v1/face-detect/${swap.id}`, { key: owner.apiKey })).status).toBe(404);
    expect((await t.request(`/api/v1/swaps/${task.id}`, { key: owner.apiKey })).status).toBe(404);
  });
});
