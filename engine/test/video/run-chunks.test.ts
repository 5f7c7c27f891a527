import { describe, expect, it } from 'vitest';
import { runChunks } from '../../src/video/run-chunks';

/** A chunk's work that ends when `release` is called, or rejects when its signal aborts. */
function controllable() {
  const started: number[] = [];
  const running = new Set<number>();
  let most = 0;
  const release = new Map<number, (value: number) => void>();
  const fail = new Map<number, (error: Error) => void>();
  const work = (chunk: number, _index: number, signal: AbortSignal) =>
    new Promise<number>((resolve, reject) => {
      started.push(chunk);
      running.add(chunk);
      most = Math.max(most, running.size);
      const end = () => running.delete(chunk);
      release.set(chunk, (value) => (end(), resolve(value)));
      fail.set(chunk, (error) => (end(), reject(error)));
      signal.addEventListener('abort', () => (end(), reject(new Error(`chunk ${chunk} aborted`))));
    });
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return { started, running, most: () => most, release, fail, work, tick };
}

describe('running the chunks of a video', () => {
  it('runs at most as many at once as asked, the next starting when one ends, results in order', async () => {
    const c = controllable();
    const done = runChunks([0, 1, 2, 3], 2, undefined, c.work);
    await c.tick();
    expect(c.started).toEqual([0, 1]);
    c.release.get(1)!(11);
    await c.tick();
    expect(c.started).toEqual([0, 1, 2]);
    c.release.get(0)!(10);
    await c.tick();
    c.release.get(2)!(12);
    await c.tick();
    c.release.get(3)!(13);
    expect(await done).toEqual([10, 11, 12, 13]);
    expect(c.most()).toBe(2);
  });

  it('on a failure, aborts the chunks running, starts no more, and throws that failure', async () => {
    const c = controllable();
    const done = runChunks([0, 1, 2, 3], 2, undefined, c.work);
    await c.tick();
    c.fail.get(0)!(new Error('chunk 0 cannot be decoded'));
    await expect(done).rejects.toThrow('chunk 0 cannot be decoded');
    expect(c.started).toEqual([0, 1]);
    expect(c.running.size).toBe(0);
  });

  it("stops every chunk when the caller's signal aborts", async () => {
    const c = controllable();
    const abort = new AbortController();
    const done = runChunks([0, 1, 2], 2, abort.signal, c.work);
    await c.tick();
    abort.abort();
    await expect(done).rejects.toThrow(/aborted/);
    expect(c.started).toEqual([0, 1]);
    expect(c.running.size).toBe(0);
  });
});
