import { describe, expect, it } from 'vitest';
import { meshTopology } from '../../src/faces/mesh-topology';

// MediaPipe mesh points: the eyes' upper lids, the brows' upper contours.
const UPPER_LIDS = [159, 386];
const BROW_TOPS = [105, 334];

describe('skin regions of the mesh', () => {
  it('marks the brows\' zone as features above the eyes, on both sides, touching no eyelid', async () => {
    const { triangles, features, brows } = await meshTopology();
    const cornersOf = (t: number) => [triangles[t * 3]!, triangles[t * 3 + 1]!, triangles[t * 3 + 2]!];
    const zone = [...brows.keys()].filter((t) => brows[t]);

    expect(zone.every((t) => features[t] === 1)).toBe(true);
    expect(zone.some((t) => cornersOf(t).some((i) => UPPER_LIDS.includes(i)))).toBe(false);
    for (const top of BROW_TOPS) expect(zone.some((t) => cornersOf(t).includes(top))).toBe(true);
  });
});
