import { beforeAll, describe, expect, it } from 'vitest';
import { meshCentre } from '../../src/animation/face-motion';
import { followFaces } from '../../src/animation/follow-faces';
import { IdentityGallery } from '../../src/animation/identity-gallery';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { largestIndex } from '../../src/faces/face-order';
import { cameraFrames } from '../faces/fixtures';

/**
 * A 640x360 window over demo photo 4 (960 px wide) that pans 30 px left per frame for three
 * frames and turns back over the next three, the largest face (about 130 px) in full view
 * throughout: frames 0 and 6, the keyframes at 25 fps, show the same view, and the face on the
 * frames between does not lie on the line between them.
 */
const [WIDTH, HEIGHT] = [640, 360];
const OFFSETS = [0, 30, 60, 90, 60, 30, 0];
const windowOf = (index: number) => ({ left: 100 - OFFSETS[index]!, top: 60, width: WIDTH, height: HEIGHT });

const largest = (faces: Face[]) => faces[largestIndex(faces.map((face) => face.box))]!;

const frames: RgbImage[] = [];
/** The largest face as found on the first frame, in photo coordinates: where it is on every frame, moved with the window. */
let truth: { centre: readonly [number, number]; size: number };

beforeAll(async () => {
  frames.push(...(await cameraFrames(4, 960, OFFSETS.map((_, i) => windowOf(i)), WIDTH, HEIGHT)).frames);
  const first = largest(await detectFaces(frames[0]!));
  const [x, y] = meshCentre(first.mesh);
  truth = { centre: [x + windowOf(0).left, y + windowOf(0).top], size: Math.sqrt(first.box.width * first.box.height) };
});

describe('a pan that turns back between two keyframes', () => {
  // Keyframes every 6 frames (25 fps) and every 2 (8 fps: one frame between, frame 3 30 px off the line).
  it.each([6, 2])('keeps the followed face on the person on every frame, not on the line between keyframes %i frames apart', async (keyframeInterval) => {
    const gallery = IdentityGallery.fromReferences([{ faces: await detectFaces(frames[0]!, { descriptors: true }), picks: [{ person: 0, pick: { frameLabel: 'frame 0' } }] }]);
    async function* all() {
      yield* frames;
    }
    const errors: number[] = [];
    let index = 0;
    for await (const frame of followFaces(all(), gallery, { keyframeInterval, verifyEvery: 8 })) {
      const face = frame.faces[0];
      expect(face, `frame ${index}`).toBeTruthy();
      const [x, y] = meshCentre(face!.mesh);
      errors.push(Math.hypot(x + windowOf(index).left - truth.centre[0], y + windowOf(index).top - truth.centre[1]) / truth.size);
      index++;
    }

    expect(errors).toHaveLength(7);
    // Interpolated between the keyframes, the face on frame 3 lay 90 px (0.67 of the face) beside
    // her, 0.26 with keyframes 2 frames apart; detected, within the detector's own jitter (0.04-0.08).
    expect(Math.max(...errors)).toBeLessThan(0.15);
  });
});
