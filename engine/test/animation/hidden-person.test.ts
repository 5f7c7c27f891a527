import { beforeAll, describe, expect, it } from 'vitest';
import { firstFrameWithFaces } from '../../src/animation/first-face';
import { followFaces } from '../../src/animation/follow-faces';
import { IdentityGallery } from '../../src/animation/identity-gallery';
import type { Face } from '../../src/faces/detect-faces';
import { handZoom, type HandZoom } from '../fixtures/hand-zoom';

/** The first 12 frames of the quality report's MP4 zoom with a hand across her face (`handZoom`), a keyframe every fourth. */
const FRAMES = Array.from({ length: 12 }, (_, i) => i);
const FOLLOW = { keyframeInterval: 4, verifyEvery: 8 };

let zoom: HandZoom;

beforeAll(async () => {
  zoom = await handZoom(FRAMES);
});

async function* frames() {
  yield* zoom.frames;
}

const isHers = (face: Face | null, index: number) => {
  const box = zoom.boxes[index]!;
  return face !== null && Math.hypot(face.box.x + face.box.width / 2 - (box.x + box.width / 2), face.box.y + face.box.height / 2 - (box.y + box.height / 2)) < box.width / 2;
};

describe('a person whose face a hand hides from the detector', () => {
  it('is found on the first frame, and once picked there, followed on every frame', async () => {
    const first = (await firstFrameWithFaces(frames(), { hidden: true }))!;
    expect(first.looked).toBe(0);
    // Counted as face detection counts them (a face index named), her face is not one of them.
    expect((await firstFrameWithFaces(frames()))!.faces.some((face) => isHers(face, 0))).toBe(false);
    const faceIndex = first.faces.findIndex((face) => isHers(face, 0));
    expect(first.faces[faceIndex]?.hidden).toBe(true);
    const gallery = IdentityGallery.fromReferences([{ faces: first.faces, picks: [{ person: 0, pick: { faceIndex, frameLabel: 'frame 0' } }] }]);

    const followed: (Face | null)[] = [];
    for await (const frame of followFaces(frames(), gallery, FOLLOW)) followed.push(frame.faces[0] ?? null);

    expect(followed).toHaveLength(FRAMES.length);
    followed.forEach((face, i) => expect(isHers(face, i), `frame ${i}`).toBe(true));
  });
});
