import { randomUUID } from 'node:crypto';
import { ComputePool, DEFAULT_SCAN_THRESHOLDS } from '@doppel/engine';
import type { Job } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queues } from '@doppel/core/queue/boss';
import type { SwapJob } from '@doppel/core/queue/payloads';
import { computeOnPool } from '@doppel/worker';
import { runSwapJob, type SwapDeps } from '@doppel/worker';
import type { Storage } from '@doppel/core/storage/storage';
import type { TestApp } from '@doppel/server/testing/app';
import { createImageSwap } from '../support/image-swap';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';

// The handler is run by hand here, with a storage that lets another attempt act at a chosen
// moment; the app itself runs no swap worker (it has no engine).
let world: IntakeWorld;
let t: TestApp;
let pool: ComputePool;
let engine: SwapDeps['engine'];

beforeAll(async () => {
  world = await startIntakeWorld({ '/face.jpg': sendBytes(demoPhoto(1)), '/group.jpg': sendBytes(demoPhoto(2)) });
  t = await world.startApp({ scan: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
  pool = new ComputePool({ threads: 1 });
  engine = computeOnPool(pool, DEFAULT_SCAN_THRESHOLDS).engine;
});
afterAll(async () => {
  await pool?.destroy();
  await t?.close();
  await world?.close();
});

const setStatus = (id: string, status: 'preparing' | 'processing' | 'done') =>
  t.db.updateTable('swaps').set({ status }).where('id', '=', id).execute();

const swapOf = (id: string) => t.db.selectFrom('swaps').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The app's storage, calling `hooks` before the matching operation and recording the keys put. */
function storageWith(hooks: { beforeGet?: () => Promise<void>; beforePut?: () => Promise<void> }): Storage & { keysPut: string[] } {
  const storage = t.services.storage;
  const keysPut: string[] = [];
  return {
    keysPut,
    async get(key) {
      await hooks.beforeGet?.();
      hooks.beforeGet = undefined;
      return storage.get(key);
    },
    async put(key, body, contentType) {
      await hooks.beforePut?.();
      keysPut.push(key);
      return storage.put(key, body, contentType);
    },
    delete: (keys) => storage.delete(keys),
    copy: (from, to) => storage.copy(from, to),
    publicUrl: (key) => storage.publicUrl(key),
  };
}

/** The job as pg-boss hands a second attempt of the swap to a worker, the first one lost. */
const retriedJob = (swapId: string): Job<SwapJob> => ({
  id: randomUUID(),
  name: queues.swap.name,
  data: { swapId },
  expireInSeconds: queues.swap.expireInSeconds,
  heartbeatSeconds: queues.swap.heartbeatSeconds,
  retryCount: 1,
  signal: new AbortController().signal,
});

describe('a retried swap job', () => {
  it('finishes a swap that a lost earlier attempt moved to processing while this one loaded the inputs', async () => {
    const { id } = await createImageSwap(t, world);
    await setStatus(id, 'preparing');
    const storage = storageWith({ beforeGet: async () => void (await setStatus(id, 'processing')) });

    await runSwapJob({ db: t.db, boss: t.services.boss, storage, engine }, retriedJob(id));

    const swap = await swapOf(id);
    expect([swap.status, swap.progress, swap.refunded]).toEqual(['done', 100, false]);
    expect(swap.result_key).toBe(storage.keysPut[0]);
    expect((await t.services.storage.get(swap.result_key!)).length).toBeGreaterThan(0);
  });

  it('deletes its result again when another attempt has finished the swap first', async () => {
    const { id } = await createImageSwap(t, world);
    const storage = storageWith({ beforePut: async () => void (await setStatus(id, 'done')) });

    await runSwapJob({ db: t.db, boss: t.services.boss, storage, engine }, retriedJob(id));

    const swap = await swapOf(id);
    expect([swap.status, swap.result_key]).toEqual(['done', null]);
    // Besides its inputs' thumbnails (the swap has ended), the job stored one result, and deleted it.
    const results = storage.keysPut.filter((key) => key.startsWith('results/'));
    expect(results).toHaveLength(1);
    await expect(t.services.storage.get(results[0]!)).rejects.toThrow();
  });
});
