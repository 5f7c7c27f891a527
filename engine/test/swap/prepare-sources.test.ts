import { describe, expect, it } from 'vitest';
import { loadSource } from '../../src/swap/load-source';
import { prepareSources, SOURCE_PREPARE_CONCURRENCY } from '../../src/swap/prepare-sources';
import { swapImage } from '../../src/swap/swap-image';
import { demoPhotoAs } from '../faces/fixtures';

/** The real loader, counting the photos it prepares and how many it works on at once. */
function countingLoader() {
  const counts = { prepared: 0, inFlight: 0, mostInFlight: 0 };
  const load = async (bytes: Buffer) => {
    counts.inFlight++;
    counts.mostInFlight = Math.max(counts.mostInFlight, counts.inFlight);
    try {
      return await loadSource(bytes);
    } finally {
      counts.inFlight--;
      counts.prepared++;
    }
  };
  return { counts, load };
}

describe('the sources of one swap', () => {
  it('are prepared once per distinct photo, however many buffers carry the same bytes, and two at a time', async () => {
    const photos = await Promise.all([demoPhotoAs(2, 480, 'jpeg'), demoPhotoAs(4, 480, 'jpeg'), demoPhotoAs(6, 480, 'jpeg')]);
    // Ten mappings, as in the largest multi-face swap: three photos, each sent in buffers of its own.
    const mappings = Array.from({ length: 10 }, (_, i) => ({ source: Buffer.from(photos[i % 3]!) }));
    const { counts, load } = countingLoader();

    const prepared = await Promise.all(prepareSources(mappings, load));

    expect(counts.prepared).toBe(3);
    expect(counts.mostInFlight).toBeLessThanOrEqual(SOURCE_PREPARE_CONCURRENCY);
    expect(new Set(prepared).size).toBe(3);
    prepared.forEach((source, i) => expect(source).toBe(prepared[i % 3]));
  });

  it('are not prepared at all when they come prepared', async () => {
    const source = await demoPhotoAs(2, 480, 'jpeg');
    const ready = await loadSource(source);
    const { counts, load } = countingLoader();
    const prepared = await Promise.all(prepareSources([{ source, prepared: ready }, { source: Buffer.from(source), prepared: ready }], load));
    expect(counts.prepared).toBe(0);
    expect(prepared).toEqual([ready, ready]);
  });

  it('give a multi-face swap of ten identical sources one prepared source, shared by every face', { timeout: 120_000 }, async () => {
    const [target, source] = await Promise.all([demoPhotoAs(1, 800, 'jpeg'), demoPhotoAs(2, 480, 'jpeg')]);
    const result = await swapImage({
      target,
      mappings: Array.from({ length: 10 }, (_, i) => ({ source: Buffer.from(source), targetFaceIndex: i % 3 })),
    });
    expect(result.sources).toHaveLength(10);
    expect(new Set(result.sources).size).toBe(1);
  });
});
