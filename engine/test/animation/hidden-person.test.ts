import { beforeAll, describe, expect, it } from 'vitest';
import { facesOnFirstFrame } from '../../src/animation/detect-following';
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

  it('is followed from the first frame’s faces found beforehand (as a video’s first chunk is) exactly as when they are detected there', async () => {
    const first = (await firstFrameWithFaces(frames(), { hidden: true }))!;
    const faceIndex = first.faces.findIndex((face) => isHers(face, 0));
    const gallery = IdentityGallery.fromReferences([{ faces: first.faces, picks: [{ person: 0, pick: { faceIndex, frameLabel: 'frame 0' } }] }]);
    expect(gallery.pickedHidden).toBe(true);
    const ahead = await facesOnFirstFrame(zoom.frames[0]!);
    // Found beforehand without the look for half-hidden faces, which the follow adds for her.
    expect(ahead.some((face) => isHers(face, 0))).toBe(false);

    const follow = async (firstFaces?: Face[]) => {
      const followed: (Face | null)[] = [];
      for await (const frame of followFaces(frames(), gallery, FOLLOW, firstFaces)) followed.push(frame.faces[0] ?? null);
      return followed;
    };
    const [onTheSpot, fromAhead] = [await follow(), await follow(ahead)];
    expect(fromAhead).toEqual(onTheSpot);
    fromAhead.forEach((face, i) => expect(isHers(face, i), `frame ${i}`).toBe(true));
  });
});
