import { afterEach, describe, expect, it } from 'vitest';
import { swapGifOnPool } from '../../src/animation/run-on-pool';
import { unwrap } from '../../src/pool/outcome';
import { ComputePool } from '../../src/pool/compute-pool';
import { demoPhoto, panGif, type Pan } from '../fixtures/pan-clip';

// A GIF long enough to hold the only render thread for several seconds (detection on every frame).
const LONG: Pan = { width: 320, height: 240, frames: 30, fromX: 100, toX: 300, y: 60, zoom: 1.1 };

let pool: ComputePool | undefined;
afterEach(async () => {
  await pool?.destroy();
  pool = undefined;
});

const longGif = () => panGif(LONG, Array(LONG.frames).fill(100), 0);
const settledYet = (promise: Promise<unknown>) => {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
};

describe('the compute pool', () => {
  it('warms every thread of both lanes before any task asks, and then serves as before', async () => {
    pool = new ComputePool({ threads: 2, quickThreads: 1 });
    expect(await pool.warmUp()).toEqual({ render: 2, quick: 1 });
    // Warm again: nothing new to load, the same threads.
    expect(await pool.warmUp()).toEqual({ render: 2, quick: 1 });
    const verdict = unwrap(await pool.run('scan', { bytes: await demoPhoto(3), kind: 'jpeg' }));
    expect(verdict.verdict).toBe('clean');
    const faces = unwrap(await pool.run('detect', { bytes: await demoPhoto(1) }));
    expect(faces.faces.length).toBeGreaterThan(0);
  });

  it('scans while every render thread is busy: scans and detections have a lane of their own', async () => {
    pool = new ComputePool({ threads: 1, quickThreads: 1 });
    const progress: number[] = [];
    const render = swapGifOnPool(pool, { target: await longGif(), source: await demoPhoto(2) }, (percent) => progress.push(percent));
    const renderDone = settledYet(render);
    const verdict = unwrap(await pool.run('scan', { bytes: await demoPhoto(3), kind: 'jpeg' }));
    expect(verdict.verdict).toBe('clean');
    expect(renderDone()).toBe(false);
    await render;
  });

  it('stops a render whose signal is aborted, and keeps serving: the next render runs on a fresh thread', async () => {
    pool = new ComputePool({ threads: 1, quickThreads: 1 });
    const controller = new AbortController();
    const progress: number[] = [];
    const render = swapGifOnPool(
      pool,
      { target: await longGif(), source: await demoPhoto(2) },
      (percent) => {
        progress.push(percent);
        if (percent > 0) controller.abort(new Error('the job expired'));
      },
      controller.signal,
    );
    await expect(render).rejects.toMatchObject({ name: 'AbortError' });
    expect(Math.max(...progress)).toBeLessThan(100);

    const next = await swapGifOnPool(
      pool,
      { target: await panGif({ ...LONG, frames: 2 }, [100, 100], 0), source: await demoPhoto(2) },
      () => undefined,
    );
    expect(next.frames).toBe(2);
  });
});
