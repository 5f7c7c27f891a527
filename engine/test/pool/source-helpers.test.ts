import { MessageChannel } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComputePool, swapWithProgress } from '../../src/pool/compute-pool';
import { unwrap } from '../../src/pool/outcome';
import { newSourceClaim, takeClaim, type HelpedSource } from '../../src/pool/source-claim';
import { swap } from '../../src/pool/tasks';
import { loadSource } from '../../src/swap/load-source';
import { toShared } from '../../src/swap/source-cache';
import { swapImage } from '../../src/swap/swap-image';
import { demoPhotoAs } from '../faces/fixtures';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

describe('a source claim', () => {
  it('goes to whichever side takes it first, and only to that one', () => {
    const claim = newSourceClaim();
    expect(takeClaim(claim, 'helper')).toBe(true);
    expect(takeClaim(claim, 'swap')).toBe(false);
    expect(takeClaim(claim, 'helper')).toBe(false);
  });
});

describe("the swap task's side of a helper", () => {
  it('uses the source its helper claimed and prepared, and leaves caching it to the pool', async () => {
    const [source, target] = await Promise.all([demoPhotoAs(2, 800, 'jpeg'), demoPhotoAs(1, 800, 'png')]);
    const claim = newSourceClaim();
    takeClaim(claim, 'helper');
    const helped = new MessageChannel();
    const prepared = toShared(await loadSource(source));
    helped.port1.postMessage({ index: 0, prepared } satisfies HelpedSource);

    const result = unwrap(await swap({ target, mappings: [{ source, claim }], helped: helped.port2 }));
    expect(result.prepared).toEqual([null]);
    expect(same(result.image, (await swapImage({ target, mappings: [{ source }] })).image)).toBe(true);
    helped.port1.close();
  });

  it('prepares the source itself when its helper failed, and reports its own error for a source without a face', async () => {
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#7a9' } }).jpeg().toBuffer();
    const target = await demoPhotoAs(1, 800, 'png');
    const claim = newSourceClaim();
    takeClaim(claim, 'helper');
    const helped = new MessageChannel();
    helped.port1.postMessage({ index: 0, prepared: null } satisfies HelpedSource);

    const outcome = await swap({ target, mappings: [{ source: blank, claim }], helped: helped.port2 });
    expect(outcome).toMatchObject({ ok: false, reason: 'no_face_in_source' });
    helped.port1.close();
  });

  it('prepares the source itself when it claims it before any helper', async () => {
    const [source, target] = await Promise.all([demoPhotoAs(2, 800, 'jpeg'), demoPhotoAs(1, 800, 'png')]);
    const helped = new MessageChannel();
    const result = unwrap(await swap({ target, mappings: [{ source, claim: newSourceClaim() }], helped: helped.port2 }));
    expect(result.prepared[0]).not.toBeNull();
    helped.port1.close();
  });
});

describe('swaps on a pool of two threads', () => {
  let pool: ComputePool;
  beforeAll(() => {
    pool = new ComputePool({ threads: 2 });
  });
  afterAll(() => pool.destroy());

  it('give the same image as a swap on one thread, each distinct source prepared and cached once', async () => {
    const [first, second, target] = await Promise.all([demoPhotoAs(2, 800, 'jpeg'), demoPhotoAs(5, 800, 'jpeg'), demoPhotoAs(4, 900, 'png')]);
    const mappings = [
      { source: first, targetFaceIndex: 0 },
      { source: second, targetFaceIndex: 1 },
      { source: first, targetFaceIndex: 2 },
    ];
    const onPool = await swapWithProgress(pool, { target, mappings }, () => undefined);
    expect(pool.sources.size).toBe(2);
    expect(same(onPool.image, (await swapImage({ target, mappings })).image)).toBe(true);
  });

  it('refuse a source without a face as a swap on one thread does', async () => {
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#7a9' } }).jpeg().toBuffer();
    const target = await demoPhotoAs(1, 800, 'jpeg');
    await expect(swapWithProgress(pool, { target, mappings: [{ source: blank }] }, () => undefined)).rejects.toMatchObject({ reason: 'no_face_in_source' });
  });
});
