import { beforeAll, describe, expect, it } from 'vitest';
import { followFaces } from '../../src/animation/follow-faces';
import { IdentityGallery } from '../../src/animation/identity-gallery';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { handPan, isHersOnHandPan } from '../fixtures/hand-pan';

/** The first 8 frames of the quality report's MP4 pan with a hand across her face (`handPan`). */
const FRAMES = 8;
/** Faces detected on every frame, as in a GIF: each frame without her is a keyframe without her. */
const KEYFRAMES = { keyframeInterval: 1, verifyEvery: 5 };

let frames: RgbImage[];
let person: Face;

const isHers = (face: Face, index: number) => isHersOnHandPan(face, person, index);

beforeAll(async () => {
  ({ frames, person } = await handPan(FRAMES));
});

describe('people the detector misses on a clip’s first frames', () => {
  it('are followed back from the first frame they are found on to the clip’s first frame', async () => {
    const found = await Promise.all(frames.map(async (frame) => detectFaces(frame, { descriptors: true })));
    expect(found[0]!.some((face) => isHers(face, 0))).toBe(false);
    const first = found.findIndex((faces, i) => faces.some((face) => isHers(face, i)));
    expect(first).toBeGreaterThan(1);
    const faceIndex = found[first]!.findIndex((face) => isHers(face, first));
    const gallery = IdentityGallery.fromReferences([{ faces: found[first]!, picks: [{ person: 0, pick: { faceIndex, frameLabel: `frame ${first}` } }] }]);
    async function* all() {
      yield* frames;
    }
    const followed: (Face | null)[] = [];
    for await (const frame of followFaces(all(), gallery, KEYFRAMES)) followed.push(frame.faces[0] ?? null);

    expect(followed).toHaveLength(FRAMES);
    followed.forEach((face, i) => expect(face !== null && isHers(face, i), `frame ${i}`).toBe(true));
  });

  it('are waited for with at most 128 MiB of frames held back, frames with no one yielded after that', async () => {
    const gallery = IdentityGallery.fromReferences([{ faces: await detectFaces(frames[2]!, { descriptors: true }), picks: [{ person: 0, pick: { frameLabel: 'frame 2' } }] }]);
    // Blank 1920x1080 frames, 5.9 MiB each: 128 MiB is 21 of them.
    const blank = { rgb: new Uint8Array(1920 * 1080 * 3).fill(128), width: 1920, height: 1080 };
    let pulled = 0;
    async function* blanks() {
      for (let i = 0; i < 30; i++, pulled++) yield blank;
    }
    const pulledBeforeFirst: number[] = [];
    for await (const frame of followFaces(blanks(), gallery, KEYFRAMES)) {
      expect(frame.faces).toEqual([null]);
      pulledBeforeFirst.push(pulled);
    }

    expect(pulledBeforeFirst).toHaveLength(30);
    expect(pulledBeforeFirst[0]).toBeGreaterThanOrEqual(20);
    expect(pulledBeforeFirst[0]).toBeLessThanOrEqual(22);
  });
});
