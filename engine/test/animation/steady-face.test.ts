import { beforeAll, describe, expect, it } from 'vitest';
import { meshCentre } from '../../src/animation/face-motion';
import { followFaces, type FollowOptions } from '../../src/animation/follow-faces';
import { IdentityGallery } from '../../src/animation/identity-gallery';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { largestIndex } from '../../src/faces/face-order';
import { cameraFrames } from '../faces/fixtures';
import { meshSpread } from '../quality/mesh-spread';
import { HAND_PAN, handPan, handPanWindow, isHersOnHandPan, type HandPan } from '../fixtures/hand-pan';
import { videoFollowOptions } from '../../src/video/swap-chunk';

/**
 * A 640x360 camera zooming from 1 to 1.5 times over thirteen frames towards demo photo 6's second
 * face (the photo 1280 px wide, the face about 150 px, turned and tilted), on which Human's mesh
 * lands several per cent of a face apart, and a few per cent larger or smaller, from one look to
 * the next.
 */
const [WIDTH, HEIGHT, FRAMES] = [640, 360, 13];
const CENTRE = [510, 330] as const;
const windowOf = (index: number) => {
  const zoom = 1 + (0.5 * index) / (FRAMES - 1);
  const [width, height] = [Math.round(WIDTH / zoom), Math.round(HEIGHT / zoom)];
  return { left: Math.round(CENTRE[0] - width / 2), top: Math.round(CENTRE[1] - height / 2), width, height };
};

const largest = (faces: Face[]) => faces[largestIndex(faces.map((face) => face.box))]!;

const frames: RgbImage[] = [];
/** The face's mesh centre, size and spread on the photo: where it is, and how large, on every frame, moved and grown with the camera. */
let truth: { centre: readonly [number, number]; size: number; spread: number };

beforeAll(async () => {
  const camera = await cameraFrames(6, 1280, Array.from({ length: FRAMES }, (_, i) => windowOf(i)), WIDTH, HEIGHT);
  frames.push(...camera.frames);
  // The person is the face nearest the camera's centre (the largest on every frame).
  const onPhoto = await detectFaces(camera.photo);
  const gap = (face: Face) => Math.hypot(face.box.x + face.box.width / 2 - CENTRE[0], face.box.y + face.box.height / 2 - CENTRE[1]);
  const person = onPhoto.reduce((a, b) => (gap(b) < gap(a) ? b : a));
  truth = { centre: meshCentre(person.mesh), size: Math.sqrt(person.box.width * person.box.height), spread: meshSpread(person.mesh) };
});

/** Per frame, how far (share of the face) a face lies from where the camera's move puts the person, and the log of its size against the size the zoom gives it. */
function errorOf(face: Face, index: number): { place: [number, number]; size: number } {
  const w = windowOf(index);
  const scale = w.width / WIDTH;
  const [x, y] = meshCentre(face.mesh);
  return { place: [(x * scale + w.left - truth.centre[0]) / truth.size, (y * scale + w.top - truth.centre[1]) / truth.size], size: Math.log((meshSpread(face.mesh) * scale) / truth.spread) };
}

/** Mean change of the errors from one frame to the next where a face is on both: the wobble against the camera's own move, in place and in size. */
function wobble(errors: (ReturnType<typeof errorOf> | null)[]): { place: number; size: number } {
  const sum = { place: 0, size: 0 };
  let steps = 0;
  for (let i = 1; i < errors.length; i++) {
    const [a, b] = [errors[i - 1], errors[i]];
    if (!a || !b) continue;
    sum.place += Math.hypot(b.place[0] - a.place[0], b.place[1] - a.place[1]);
    sum.size += Math.abs(b.size - a.size);
    steps++;
  }
  return { place: sum.place / steps, size: sum.size / steps };
}

/** The person's face on each of `clip`'s frames, followed with `options`. */
async function followed(clip: RgbImage[], options: FollowOptions): Promise<(Face | null)[]> {
  const gallery = IdentityGallery.fromReferences([{ faces: await detectFaces(clip[0]!, { descriptors: true }), picks: [{ person: 0, pick: { frameLabel: 'frame 0' } }] }]);
  async function* all() {
    yield* clip;
  }
  const faces: (Face | null)[] = [];
  for await (const frame of followFaces(all(), gallery, options)) faces.push(frame.faces[0] ?? null);
  return faces;
}

describe('a person followed through a zoom', () => {
  it('wobbles over the person, and swells and shrinks, less than the detector does frame by frame with a keyframe on every frame', async () => {
    const detected = await Promise.all(frames.map(async (frame, i) => errorOf(largest(await detectFaces(frame)), i)));
    const faces = await followed(frames, { keyframeInterval: 1, verifyEvery: 5 });

    faces.forEach((face, i) => expect(face, `frame ${i}`).toBeTruthy());
    const errors = faces.map((face, i) => errorOf(face!, i));
    // Each keyframe's detection moved halfway to where, and grown halfway to how large, its pixels
    // say the face is: the jitter is averaged over keyframes, while the face stays on the person.
    expect(wobble(errors).place).toBeLessThan(0.75 * wobble(detected).place);
    expect(wobble(errors).size).toBeLessThan(0.75 * wobble(detected).size);
    expect(Math.max(...errors.map(({ place: [x, y] }) => Math.hypot(x, y)))).toBeLessThan(Math.max(...detected.map(({ place: [x, y] }) => Math.hypot(x, y))) + 0.05);
  });

  it('steadies the detections of a person followed frame by frame, where a keyframe lost them', async () => {
    // A blank keyframe in the middle: the person is on neither it nor the one after it, so the
    // frames around it are followed by detecting every frame, forwards from frame 0 and backwards
    // from the last.
    const blank = { ...frames[6]!, rgb: new Uint8Array(frames[6]!.rgb.length).fill(128) };
    const clip = frames.map((frame, i) => (i === 6 ? blank : frame));
    const faces = await followed(clip, { keyframeInterval: 6, verifyEvery: 5 });

    expect(faces[6]).toBeNull();
    const detected = await Promise.all(clip.map(async (frame, i) => (i === 6 ? null : errorOf(largest(await detectFaces(frame)), i))));
    const errors = faces.map((face, i) => (face ? errorOf(face, i) : null));
    expect(errors.filter(Boolean)).toHaveLength(FRAMES - 1);
    expect(wobble(errors).place).toBeLessThan(0.75 * wobble(detected).place);
    expect(wobble(errors).size).toBeLessThan(0.75 * wobble(detected).size);
  });
});

describe('a person followed with a hand across their face', () => {
  // Under the hand the looks at her face (the frame's, the closer look's, the padded frame's) size
  // it up to a third apart, from one frame to the next.
  it('grows and shrinks by at most an eighth from one frame to the next, as the video swap follows her', async () => {
    const sizes = await sizesOnHandPan();
    const steps = sizes.slice(1).map((size, i) => Math.abs(Math.log(size / sizes[i]!)));
    expect(Math.max(...steps)).toBeLessThan(0.125);
  });

  // Detections that far from the size her pixels give give way to the tracked face: met halfway on
  // each frame, they pulled her face 30 % larger over the frames she is followed back through.
  it('keeps her face one size against the camera\'s zoom through the clip, where the detector under the hand sizes it a third larger', async () => {
    const sizes = await sizesOnHandPan();
    expect(Math.log(Math.max(...sizes) / Math.min(...sizes))).toBeLessThan(0.2);
  });
});

/** Per frame of the hand pan, as the video swap follows her, the size of her face against the size the camera's zoom gives it. */
async function sizesOnHandPan(): Promise<number[]> {
  const pan = await handPan();
  const first = await firstWithHer(pan);
  const gallery = IdentityGallery.fromReferences([{ faces: first.faces, picks: [{ person: 0, pick: { faceIndex: first.index, frameLabel: 'her first frame' } }] }]);
  const sizes: number[] = [];
  let index = 0;
  for await (const frame of followFaces(each(pan.frames), gallery, videoFollowOptions(25))) {
    const face = frame.faces[0];
    expect(face, `frame ${index}`).toBeTruthy();
    sizes.push(meshSpread(face!.mesh) / (meshSpread(pan.person.mesh) * (HAND_PAN.width / handPanWindow(index).width)));
    index++;
  }
  return sizes;
}

async function* each(frames: RgbImage[]) {
  yield* frames;
}

/** The first frame of the hand pan on which a face is found where she is: its faces, and which is hers. */
async function firstWithHer({ frames, person }: HandPan): Promise<{ faces: Face[]; index: number }> {
  for (const [i, frame] of frames.entries()) {
    const faces = await detectFaces(frame, { descriptors: true });
    const index = faces.findIndex((face) => isHersOnHandPan(face, person, i));
    if (index >= 0) return { faces, index };
  }
  throw new Error('she is found on no frame');
}
