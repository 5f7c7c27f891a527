import { beforeAll, describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/faces/decode-image';
import { lookCloser, resampled } from '../../src/faces/closer-look';
import { detectFaces, meshExtent, type Face } from '../../src/faces/detect-faces';
import { cameraFrames, type PhotoWindow } from './fixtures';

/**
 * The quality report's MP4 zoom: 640x360 frames cut from demo photo 6 at 1280 px, zooming in on
 * the woman in the middle (photo 6's face 1). Her face on the photo, where it is twice as large in
 * a larger picture, looked at closer the same way, is what every frame's mesh should match.
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
      const person = await lookCloser(photo, onPhoto.reduce((a, b) => (gap(b) < gap(a) ? b : a)));
      own.push(offPhoto(face, person, index));
      closer.push(offPhoto(await lookCloser(frame, face), person, index));
    }
    expect(Math.max(...closer)).toBeLessThan(0.02);
    expect(Math.min(...own)).toBeGreaterThan(2 * Math.max(...closer));
  });

  it('leaves a face as it was when the crop shows no face', async () => {
    const blank: RgbImage = { rgb: new Uint8Array(640 * 360 * 3).fill(90), width: 640, height: 360 };
    const face = largest(await detectFaces(frames[0]!));
    expect(await lookCloser(blank, face)).toBe(face);
  });
});

/** The crop in plain JavaScript, as its WebAssembly promises it: per crop pixel, taps x taps bilinear samples (the image mirrored beyond its edges) summed in float64, their mean rounded as Math.round does. */
function referenceCrop(image: RgbImage, left: number, top: number, scale: number): Uint8Array {
  const side = 256;
  const taps = Math.max(1, Math.ceil(scale));
  const place = (start: number, c: number, t: number, size: number) => {
    const period = 2 * (size - 1);
    const folded = (((start + (c + (t + 0.5) / taps) * scale - 0.5) % period) + period) % period;
    const at = folded < size ? folded : period - folded;
    const first = Math.min(size - 2, Math.floor(at));
    return { first, share: at - first };
  };
  const out = new Uint8Array(side * side * 3);
  for (let cy = 0; cy < side; cy++) {
    for (let cx = 0; cx < side; cx++) {
      const sums = [0, 0, 0];
      for (let ty = 0; ty < taps; ty++) {
        const row = place(top, cy, ty, image.height);
        for (let tx = 0; tx < taps; tx++) {
          const column = place(left, cx, tx, image.width);
          const i = (row.first * image.width + column.first) * 3, j = i + image.width * 3;
          for (let k = 0; k < 3; k++) {
            const upper = image.rgb[i + k]! + (image.rgb[i + k + 3]! - image.rgb[i + k]!) * column.share;
            const lower = image.rgb[j + k]! + (image.rgb[j + k + 3]! - image.rgb[j + k]!) * column.share;
            sums[k]! += upper + (lower - upper) * row.share;
          }
        }
      }
      for (let k = 0; k < 3; k++) out[(cy * side + cx) * 3 + k] = Math.round(sums[k]! / (taps * taps));
    }
  }
  return out;
}

describe("the closer look's crop (WebAssembly)", () => {
  it('gives exactly what sampling in plain JavaScript gives: shrunk, enlarged, at exact halves and mirrored beyond the edges', () => {
    const [width, height] = [300, 200];
    // Stripes and a gradient: neighbouring samples differ, and means fall on exact halves.
    const rgb = Uint8Array.from({ length: width * height * 3 }, (_, i) => ((i % 3) * 97 + Math.floor(i / 3) * (i % 3 === 0 ? 1 : 7)) % 256);
    const image = { rgb, width, height };
    for (const [left, top, scale] of [[20, 10, 1], [40.25, 30.5, 0.5], [-60, -40, 1.5], [100, 50, 2.03], [150, 120, 0.75], [-10, 90, 3]] as const) {
      expect(Array.from(resampled(image, left, top, scale).rgb), `${left}, ${top} at ${scale}`).toEqual(Array.from(referenceCrop(image, left, top, scale)));
    }
  });
});
