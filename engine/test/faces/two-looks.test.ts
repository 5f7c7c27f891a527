import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, type RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { meshTopology, type MeshTopology } from '../../src/faces/mesh-topology';
import { withTwoLooks } from '../../src/faces/two-looks';
import { demoPhoto } from './fixtures';

/** Each eye's contour (MediaPipe mesh indices): the face's right eye, on the image's left for a face seen from the front, and its left. */
const RIGHT_EYE = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246];
const LEFT_EYE = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466];

function insideRing(mesh: Float32Array, ring: number[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi, xj, yj] = [mesh[ring[i]! * 2]!, mesh[ring[i]! * 2 + 1]!, mesh[ring[j]! * 2]!, mesh[ring[j]! * 2 + 1]!];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Mean luma of the pixels inside an eye's contour: the lashes and the iris are darker than the lid's skin. */
function lumaInside(image: RgbImage, mesh: Float32Array, ring: number[]): number {
  const xs = ring.map((p) => mesh[p * 2]!);
  const ys = ring.map((p) => mesh[p * 2 + 1]!);
  let [sum, count] = [0, 0];
  for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++) {
    for (let x = Math.floor(Math.min(...xs)); x <= Math.ceil(Math.max(...xs)); x++) {
      if (!insideRing(mesh, ring, x + 0.5, y + 0.5)) continue;
      const p = (y * image.width + x) * 3;
      sum += 0.299 * image.rgb[p]! + 0.587 * image.rgb[p + 1]! + 0.114 * image.rgb[p + 2]!;
      count++;
    }
  }
  return sum / count;
}

let photo: RgbImage;
let face: Face;
let topology: MeshTopology;

beforeAll(async () => {
  photo = await decodeImage(await demoPhoto(6));
  topology = await meshTopology();
  face = (await detectFaces(photo)).find((f) => f.index === 1)!;
});

describe("a source face's eyes read twice", () => {
  it("lays a turned face's far eye on the eye, where the detector's mesh alone laid it over the lower lid", async () => {
    const twice = await withTwoLooks(photo, face, topology);
    // Photo 6's face 1 is turned to the image's left: her right eye is the far one.
    expect(lumaInside(photo, twice.mesh, RIGHT_EYE)).toBeLessThan(lumaInside(photo, face.mesh, RIGHT_EYE) - 15);
    expect(Math.abs(lumaInside(photo, twice.mesh, LEFT_EYE) - lumaInside(photo, face.mesh, LEFT_EYE))).toBeLessThan(5);
  });

  it("keeps the detector's mesh everywhere but the eyes and brows", async () => {
    const twice = await withTwoLooks(photo, face, topology);
    let moved = 0;
    for (let point = 0; point < topology.eyes.length; point++) {
      const same = twice.mesh[point * 2] === face.mesh[point * 2] && twice.mesh[point * 2 + 1] === face.mesh[point * 2 + 1];
      if (!topology.eyes[point]) expect(same).toBe(true);
      else if (!same) moved++;
    }
    expect(moved).toBeGreaterThan(0);
  });

  it('keeps the face where no face is seen closer', async () => {
    const blank: RgbImage = { rgb: new Uint8Array(photo.rgb.length).fill(90), width: photo.width, height: photo.height };
    expect(await withTwoLooks(blank, face, topology)).toBe(face);
  });
});
