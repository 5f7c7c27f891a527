import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { meshCentre } from '../../src/animation/face-motion';
import { followFaces } from '../../src/animation/follow-faces';
import { IdentityGallery } from '../../src/animation/identity-gallery';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { cameraFrames } from '../faces/fixtures';
import { handAcross, handCutout } from '../quality/hand';

/**
 * The first 8 frames of the quality report's MP4 pan: a 640x360 window moves right over demo photo
 * 2 (1280 px wide), zooming in slightly, past the looking-down woman in the middle, here with a
 * hand laid across her face. The detector misses her face on the first frames.
 */
const PAN = { width: 640, height: 360, frames: 8, of: 40, from: { x: 300, y: 40, zoom: 1 }, to: { x: 640, y: 60, zoom: 1.2 } };
/** Faces detected on every frame, as in a GIF: each frame without her is a keyframe without her. */
const KEYFRAMES = { keyframeInterval: 1, verifyEvery: 5 };

const windowOf = (index: number) => {
  const t = index / (PAN.of - 1);
  const lerp = (a: number, b: number) => a + (b - a) * t;
  const zoom = lerp(PAN.from.zoom, PAN.to.zoom);
  return { left: Math.round(lerp(PAN.from.x, PAN.to.x)), top: Math.round(lerp(PAN.from.y, PAN.to.y)), width: Math.round(PAN.width / zoom), height: Math.round(PAN.height / zoom) };
};

let frames: RgbImage[];
/** Her face on the photo, found before the hand was laid across it. */
let person: Face;

/** Where the camera's move puts the middle of her face on frame `index`, and the face's width there. */
function expected(index: number): { x: number; y: number; width: number } {
  const w = windowOf(index);
  const scale = PAN.width / w.width;
  const [x, y] = meshCentre(person.mesh);
  return { x: (x - w.left) * scale, y: (y - w.top) * scale, width: person.box.width * scale };
}

const isHers = (face: Face, index: number) => {
  const at = expected(index);
  const [x, y] = meshCentre(face.mesh);
  return Math.hypot(x - at.x, y - at.y) < 0.2 * at.width;
};

beforeAll(async () => {
  const { photo } = await cameraFrames(2, 1280, [], PAN.width, PAN.height);
  person = [...(await detectFaces(photo))].sort((a, b) => a.box.x - b.box.x)[1]!;
  const hand = handCutout((await cameraFrames(2, 1920, [], PAN.width, PAN.height)).photo);
  const withHand = handAcross(photo, person.box, hand).image;
  const raw = sharp(withHand.rgb, { raw: { width: withHand.width, height: withHand.height, channels: 3 } });
  frames = [];
  for (let i = 0; i < PAN.frames; i++) {
    const rgb = await raw.clone().extract(windowOf(i)).resize(PAN.width, PAN.height).raw().toBuffer();
    frames.push({ rgb: new Uint8Array(rgb), width: PAN.width, height: PAN.height });
  }
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

    expect(followed).toHaveLength(PAN.frames);
    followed.forEach((face, i) => expect(face !== null && isHers(face, i), `frame ${i}`).toBe(true));
  });

  it('are waited for with at most 128 MB of frames held back, frames with no one yielded after that', async () => {
    const gallery = IdentityGallery.fromReferences([{ faces: await detectFaces(frames[2]!, { descriptors: true }), picks: [{ person: 0, pick: { frameLabel: 'frame 2' } }] }]);
    // Blank 1920x1080 frames, 6.2 MB each: 128 MB is 21 of them.
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
