import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { trackFace } from '../../src/animation/track-face';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { largestIndex } from '../../src/faces/face-order';
import { demoPhoto } from '../faces/fixtures';

/** A 640x360 window of a demo photo (1280 px wide) whose left edge is at `left`. */
async function windowAt(photo: number, left: number, top: number): Promise<RgbImage> {
  const { data } = await sharp(await demoPhoto(photo)).resize({ width: 1280 }).extract({ left, top, width: 640, height: 360 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data), width: 640, height: 360 };
}

const meanShift = (from: Face, to: Face): [number, number] => {
  let [dx, dy] = [0, 0];
  for (let i = 0; i < from.mesh.length; i += 2) [dx, dy] = [dx + to.mesh[i]! - from.mesh[i]!, dy + to.mesh[i + 1]! - from.mesh[i + 1]!];
  return [dx / (from.mesh.length / 2), dy / (from.mesh.length / 2)] as const;
};

/** The face as it would be on the window `dx` px further left (the face `dx` px further right), its box clipped to the window. */
function movedBy(face: Face, dx: number): Face {
  const mesh = face.mesh.map((v, i) => (i % 2 === 0 ? v + dx : v));
  const x = Math.max(0, face.box.x + dx);
  return { ...face, mesh, box: { ...face.box, x, width: Math.min(640, face.box.x + dx + face.box.width) - x } };
}

let face: Face;
/** The face's width (its box before it was cut by the edge). */
let width: number;
/** Where the window starts when the face's centre is 10 % of its width inside the right edge. */
let nearEdge: number;

beforeAll(async () => {
  const faces = await detectFaces(await windowAt(2, 300, 40));
  face = faces[largestIndex(faces.map((f) => f.box))]!;
  width = face.box.width;
  nearEdge = Math.round(300 + face.box.x + width / 2 - (640 - 0.1 * width));
  face = movedBy(face, 300 - nearEdge);
});

describe('following a face the detector misses', () => {
  it("moves the face with the frame's content, also as it leaves the frame", async () => {
    // The camera pans left: the face moves right, until more than half of it is past the edge.
    const shift = Math.round(0.25 * width);
    const tracked = trackFace(await windowAt(2, nearEdge, 40), await windowAt(2, nearEdge - shift, 40), face);
    expect(tracked).not.toBeNull();
    const [dx, dy] = meanShift(face, tracked!);
    expect(Math.abs(dx - shift)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(dy)).toBeLessThanOrEqual(1.5);
    expect(tracked!.box.x + tracked!.box.width).toBe(640);
  });

  it('loses the face on a cut to another scene', async () => {
    expect(trackFace(await windowAt(2, nearEdge, 40), await windowAt(6, 200, 200), face)).toBeNull();
  });

  it('loses the face once less than a quarter of it is left in the frame', async () => {
    // 40 % of its width further right than near the edge: a fifth of the face is left inside.
    // The frame does not change, so only the share left inside decides.
    const frame = await windowAt(2, nearEdge, 40);
    const mostlyOut = movedBy(face, Math.round(0.4 * width));
    expect(trackFace(frame, frame, mostlyOut)).toBeNull();
    const halfOut = movedBy(face, Math.round(0.2 * width));
    expect(trackFace(frame, frame, halfOut)).not.toBeNull();
  });
});
