import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComputePool, swapWithProgress } from '../../src/pool/compute-pool';
import type { FaceTexture, PreparedSource } from '../../src/swap/prepared-source';
import { PreparedSourceCache, preparedBytes, sourceKey } from '../../src/swap/source-cache';
import { swapImage } from '../../src/swap/swap-image';
import { demoPhotoAs } from '../faces/fixtures';

/** A prepared source holding `pixels` pixels per texture (content does not matter to the cache). */
function preparedOf(pixels: number): PreparedSource {
  const texture = (): FaceTexture => ({
    rgb: new Uint8Array(pixels * 3),
    width: pixels,
    height: 1,
    mesh: new Float32Array(936),
    depth: new Float32Array(468),
    turn: 0,
    likeness: new Uint8Array(pixels),
  });
  return { face: texture(), mirrored: texture() };
}

describe('prepared-source cache', () => {
  it('finds a source again by the SHA-256 of its bytes, whoever sends them', () => {
    const cache = new PreparedSourceCache();
    const bytes = Buffer.from('a source photo');
    const prepared = preparedOf(10);
    cache.set(sourceKey(bytes), prepared);
    expect(cache.get(sourceKey(new Uint8Array(Buffer.from('a source photo'))))).toBe(prepared);
    expect(cache.get(sourceKey(Buffer.from('another photo')))).toBeUndefined();
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 1 });
  });

  it('stays within its memory bound, dropping the least recently used source first', () => {
    const size = preparedBytes(preparedOf(1000));
    const cache = new PreparedSourceCache(3 * size);
    for (const key of ['a', 'b', 'c']) cache.set(key, preparedOf(1000));
    cache.get('a');
    cache.set('d', preparedOf(1000));
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')].every(Boolean)).toBe(true);
    expect(cache.heldBytes).toBeLessThanOrEqual(3 * size);
    expect(cache.size).toBe(3);
  });

  it('does not keep a source larger than its whole bound', () => {
    const cache = new PreparedSourceCache(1000);
    cache.set('big', preparedOf(1000));
    expect(cache.size).toBe(0);
    expect(cache.heldBytes).toBe(0);
  });
});

describe('compute pool with a repeated source', () => {
  let pool: ComputePool;
  beforeAll(() => {
    pool = new ComputePool({ threads: 1 });
  });
  afterAll(() => pool.destroy());

  it('prepares the source once, and a swap from the cache gives the same image as one without it', async () => {
    const [source, first, second] = await Promise.all([demoPhotoAs(2, 800, 'jpeg'), demoPhotoAs(1, 800, 'png'), demoPhotoAs(6, 800, 'png')]);
    await swapWithProgress(pool, { target: first, mappings: [{ source }] }, () => undefined);
    expect({ size: pool.sources.size, hits: pool.sources.hits, misses: pool.sources.misses }).toEqual({ size: 1, hits: 0, misses: 1 });

    const cached = await swapWithProgress(pool, { target: second, mappings: [{ source }] }, () => undefined);
    expect({ size: pool.sources.size, hits: pool.sources.hits, misses: pool.sources.misses }).toEqual({ size: 1, hits: 1, misses: 1 });
    const uncached = await swapImage({ target: second, mappings: [{ source }] });
    expect(Buffer.compare(Buffer.from(cached.image), uncached.image)).toBe(0);
  });
});
