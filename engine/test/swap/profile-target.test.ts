import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { largestIndex } from '../../src/faces/face-order';
import { meshTurn } from '../../src/faces/mesh-mirror';
import { meshTopology, type MeshTopology } from '../../src/faces/mesh-topology';
import { nearHalfOnly } from '../../src/swap/near-half-only';
import { prepareSource } from '../../src/swap/prepared-source';
import { paintTriangles } from '../../src/swap/rasterise-mesh';
import { swapFaceInto } from '../../src/swap/swap-face';
import { toBox } from '../../src/swap/warp-face';
import { demoPhoto } from '../faces/fixtures';

let topology: MeshTopology;

async function demo(n: number): Promise<{ image: RgbImage; faces: Face[] }> {
  const { data, info } = await sharp(await demoPhoto(n)).resize({ width: 960 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image = { rgb: new Uint8Array(data), width: info.width, height: info.height };
  return { image, faces: await detectFaces(image) };
}

beforeAll(async () => {
  topology = await meshTopology();
});

describe('a target seen in profile', () => {
  it('keeps its far half and what lies beyond its silhouette its own, and takes the source on its near half', async () => {
    // Photo 2's face 0 looks to the left in profile; photo 1's largest face looks at the camera.
    const target = await demo(2);
    const source = await demo(1);
    const face = target.faces[0]!;
    const result = { ...target.image, rgb: Uint8Array.from(target.image.rgb) };
    swapFaceInto(result, face, prepareSource(source.image, source.faces[largestIndex(source.faces.map((f) => f.box))]!, topology), { topology });

    const { box } = face;
    const near = meshTurn(face.mesh, topology.triangles, topology.sides) > 0 ? 1 : -1;
    const half = (side: number) => paintTriangles(toBox(face.mesh, box), topology.triangles, Uint8Array.from(topology.sides, (s) => (s === side ? 1 : 0)), box.width, box.height);
    const change = (mask: Uint8Array) => {
      let sum = 0;
      let count = 0;
      for (let y = 0; y < box.height; y++) {
        for (let x = 0; x < box.width; x++) {
          if (!mask[y * box.width + x]) continue;
          const p = ((box.y + y) * result.width + box.x + x) * 3;
          for (let c = 0; c < 3; c++) sum += Math.abs(result.rgb[p + c]! - target.image.rgb[p + c]!);
          count++;
        }
      }
      return sum / (3 * count);
    };
    const [farChange, nearChange] = [change(half(-near)), change(half(near))];
    expect(farChange).toBeLessThan(2);
    expect(nearChange).toBeGreaterThan(10);
  });
});

describe('the near half only', () => {
  // Two triangles' worth of pixels: the left half of a 40x10 box is triangle 0, the right triangle 1.
  const [width, height] = [40, 10];
  const map = Int16Array.from({ length: width * height }, (_, p) => (p % width < 20 ? 0 : 1));
  const sides = Int8Array.from([-1, 1]);
  const at = (shown: Float32Array, x: number) => shown[5 * width + x]!;

  it("keeps the far half the target's own and fades in over the near half beside it", () => {
    // Turned towards +1: the right half is near.
    const shown = nearHalfOnly(map, sides, 0.6, 1, width, height, 2);
    for (let x = 0; x < 20; x++) expect(at(shown, x)).toBe(0);
    expect(at(shown, 39)).toBe(1);
    for (let x = 20; x < 39; x++) expect(at(shown, x + 1)).toBeGreaterThanOrEqual(at(shown, x));
  });

  it('takes the other half as far when the face is turned the other way', () => {
    const shown = nearHalfOnly(map, sides, -0.6, 1, width, height, 2);
    expect(at(shown, 0)).toBe(1);
    expect(at(shown, 39)).toBe(0);
  });

  it('keeps as much of the far half as is hidden', () => {
    const shown = nearHalfOnly(map, sides, 0.6, 0.4, width, height, 2);
    expect(at(shown, 5)).toBeCloseTo(0.6, 5);
    expect(at(shown, 39)).toBe(1);
  });
});
