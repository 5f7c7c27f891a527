import { beforeAll, describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/faces/decode-image';
import { lookCloser } from '../../src/faces/closer-look';
import { detectFaces, meshExtent, type Face } from '../../src/faces/detect-faces';
import { cameraFrames, type PhotoWindow } from './fixtures';

/**
 * The quality report's MP4 zoom: 640x360 frames cut from demo photo 6 at 1280 px, zooming in on
 * the woman in the middle (photo 6's face 1). Her face as detected on the photo, where it is
 * twice as large in a larger picture, is what every frame's mesh should match.
 */
const ZOOM = [1.2, 1.4, 1.6];
const windows: PhotoWindow[] = ZOOM.map((zoom, i) => ({ left: 340 + 20 * i, top: 215 + 15 * i, width: Math.round(640 / zoom), height: Math.round(360 / zoom) }));

let frames: RgbImage[];
let photo: RgbImage;

beforeAll(async () => {
  ({ frames, photo } = await cameraFrames(6, 1280, windows, 640, 360));
});

const largest = (faces: Face[]) => faces.reduce((a, b) => (b.box.width * b.box.height > a.box.width * a.box.height ? b : a));

/** Mean distance of a frame's mesh points from the person's on the photo (moved into the frame), as a share of the face's size there. */
function offPhoto(face: Face, person: Face, index: number): number {
  const w = windows[index]!;
  const scale = 640 / w.width;
  let sum = 0;
  for (let i = 0; i < face.mesh.length; i += 2) {
    sum += Math.hypot(face.mesh[i]! - (person.mesh[i]! - w.left) * scale, face.mesh[i + 1]! - (person.mesh[i + 1]! - w.top) * scale);
  }
  const { minX, maxX, minY, maxY } = meshExtent(person.mesh);
  return sum / (face.mesh.length / 2) / (Math.sqrt((maxX - minX) * (maxY - minY)) * scale);
}

describe('a closer look at a face on a video frame', () => {
  it('gives the mesh the face has on the photo the frame was cut from, where the frame alone gives one a tenth of the face off', async () => {
    const own: number[] = [];
    const closer: number[] = [];
    const onPhoto = await detectFaces(photo);
    for (const [index, frame] of frames.entries()) {
      const face = largest(await detectFaces(frame));
      // The same face on the photo: the one whose box's middle is nearest this one's, moved onto the photo.
      const w = windows[index]!;
      const [x, y] = [w.left + ((face.box.x + face.box.width / 2) * w.width) / 640, w.top + ((face.box.y + face.box.height / 2) * w.height) / 360];
      const gap = (other: Face) => Math.hypot(other.box.x + other.box.width / 2 - x, other.box.y + other.box.height / 2 - y);
      const person = onPhoto.reduce((a, b) => (gap(b) < gap(a) ? b : a));
      own.push(offPhoto(face, person, index));
      closer.push(offPhoto(await lookCloser(frame, face), person, index));
    }
    expect(Math.max(...closer)).toBeLessThan(0.03);
    expect(Math.min(...own)).toBeGreaterThan(2 * Math.max(...closer));
  });

  it('leaves a face as it was when the crop shows no face', async () => {
    const blank: RgbImage = { rgb: new Uint8Array(640 * 360 * 3).fill(90), width: 640, height: 360 };
    const face = largest(await detectFaces(frames[0]!));
    expect(await lookCloser(blank, face)).toBe(face);
  });
});
