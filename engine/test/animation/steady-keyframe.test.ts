import { beforeAll, describe, expect, it } from 'vitest';
import { meshCentre } from '../../src/animation/face-motion';
import { followFaces } from '../../src/animation/follow-faces';
import { IdentityGallery } from '../../src/animation/identity-gallery';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { largestIndex } from '../../src/faces/face-order';
import { cameraFrames } from '../faces/fixtures';

/**
 * A 640x360 camera zooming from 1 to 1.5 times over twelve frames towards demo photo 6's second
 * face (the photo 1280 px wide, the face about 150 px, turned and tilted), on which Human's mesh
 * lands several per cent of a face apart from one look to the next. Every frame is a keyframe, as
 * on a GIF.
 */
const [WIDTH, HEIGHT, FRAMES] = [640, 360, 12];
const CENTRE = [510, 330] as const;
const windowOf = (index: number) => {
  const zoom = 1 + (0.5 * index) / (FRAMES - 1);
  const [width, height] = [Math.round(WIDTH / zoom), Math.round(HEIGHT / zoom)];
  return { left: Math.round(CENTRE[0] - width / 2), top: Math.round(CENTRE[1] - height / 2), width, height };
};

const largest = (faces: Face[]) => faces[largestIndex(faces.map((face) => face.box))]!;

const frames: RgbImage[] = [];
/** The face's mesh centre and size on the photo: where it is on every frame, moved and grown with the camera. */
let truth: { centre: readonly [number, number]; size: number };

beforeAll(async () => {
  const camera = await cameraFrames(6, 1280, Array.from({ length: FRAMES }, (_, i) => windowOf(i)), WIDTH, HEIGHT);
  frames.push(...camera.frames);
  // The person is the face nearest the camera's centre (the largest on every frame).
  const onPhoto = await detectFaces(camera.photo);
  const gap = (face: Face) => Math.hypot(face.box.x + face.box.width / 2 - CENTRE[0], face.box.y + face.box.height / 2 - CENTRE[1]);
  const person = onPhoto.reduce((a, b) => (gap(b) < gap(a) ? b : a));
  truth = { centre: meshCentre(person.mesh), size: Math.sqrt(person.box.width * person.box.height) };
});

/** Per frame, how far (share of the face) a face lies from where the camera's move puts the person. */
function errorOf(face: Face, index: number): [number, number] {
  const w = windowOf(index);
  const scale = w.width / WIDTH;
  const [x, y] = meshCentre(face.mesh);
  return [(x * scale + w.left - truth.centre[0]) / truth.size, (y * scale + w.top - truth.centre[1]) / truth.size];
}

/** Mean change of the error from one frame to the next: the wobble against the camera's own move. */
function wobble(errors: [number, number][]): number {
  let sum = 0;
  for (let i = 1; i < errors.length; i++) sum += Math.hypot(errors[i]![0] - errors[i - 1]![0], errors[i]![1] - errors[i - 1]![1]);
  return sum / (errors.length - 1);
}

describe('a person followed through a zoom with a keyframe on every frame', () => {
  it('wobbles over the person less than the detector does frame by frame', async () => {
    const detected: [number, number][] = [];
    for (const [i, frame] of frames.entries()) detected.push(errorOf(largest(await detectFaces(frame)), i));
    const gallery = IdentityGallery.fromReferences([{ faces: await detectFaces(frames[0]!, { descriptors: true }), picks: [{ person: 0, pick: { frameLabel: 'frame 0' } }] }]);
    async function* all() {
      yield* frames;
    }
    const followed: [number, number][] = [];
    let index = 0;
    for await (const frame of followFaces(all(), gallery, { keyframeInterval: 1, verifyEvery: 5 })) {
      expect(frame.faces[0], `frame ${index}`).toBeTruthy();
      followed.push(errorOf(frame.faces[0]!, index++));
    }

    expect(followed).toHaveLength(FRAMES);
    // Each keyframe's detection moved halfway to where its pixels say the face is: the position's
    // jitter is averaged over keyframes, while the face still stays on the person.
    expect(wobble(followed)).toBeLessThan(0.75 * wobble(detected));
    expect(Math.max(...followed.map(([x, y]) => Math.hypot(x, y)))).toBeLessThan(Math.max(...detected.map(([x, y]) => Math.hypot(x, y))) + 0.05);
  });
});
