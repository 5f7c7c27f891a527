import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, type DecodedImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { meshTopology, type MeshTopology } from '../../src/faces/mesh-topology';
import { extendOutline, OUTLINE_EXTENSION } from '../../src/swap/extend-outline';
import { fadeBeyondOutline } from '../../src/swap/fade-beyond-outline';
import { prepareSource } from '../../src/swap/prepared-source';
import { swapFaceInto } from '../../src/swap/swap-face';
import { demoPhoto } from '../faces/fixtures';

// MediaPipe mesh points: the top of the face's outline (mid forehead) and the chin.
const [FOREHEAD, CHIN] = [10, 152];

let topology: MeshTopology;
const photos = new Map<number, { image: DecodedImage; faces: Face[] }>();

beforeAll(async () => {
  topology = await meshTopology();
  for (const n of [4, 6]) {
    const image = await decodeImage(await demoPhoto(n));
    photos.set(n, { image, faces: await detectFaces(image) });
  }
});

const point = (mesh: Float32Array, i: number) => [mesh[i * 2]!, mesh[i * 2 + 1]!] as const;
const moved = (a: Float32Array, b: Float32Array, i: number) => Math.hypot(a[i * 2]! - b[i * 2]!, a[i * 2 + 1]! - b[i * 2 + 1]!);

describe('extendOutline', () => {
  it("moves the forehead's outline out by a tenth of the face size and leaves the chin and every inner point where they are", () => {
    const { image, faces } = photos.get(6)!;
    const face = faces[0]!;
    const region = extendOutline(face, image, topology);
    const size = Math.min(face.box.width, face.box.height);
    expect(moved(region.mesh, face.mesh, FOREHEAD) / size).toBeCloseTo(OUTLINE_EXTENSION, 3);
    expect(point(region.mesh, FOREHEAD)[1]).toBeLessThan(point(face.mesh, FOREHEAD)[1]);
    expect(moved(region.mesh, face.mesh, CHIN)).toBe(0);
    for (let i = 0; i < topology.rings.length; i++) if (topology.rings[i] !== 0) expect(moved(region.mesh, face.mesh, i)).toBe(0);
    expect(region.box.y).toBeLessThan(face.box.y);
    expect(region.box.y + region.box.height).toBe(face.box.y + face.box.height);
  });

  it('keeps the region inside the image for a face at its top edge', () => {
    const { faces } = photos.get(6)!;
    const face = faces[0]!;
    const top = face.box.y;
    const atEdge: Face = { ...face, mesh: Float32Array.from(face.mesh, (v, i) => (i % 2 ? v - top : v)), box: { ...face.box, y: 0 } };
    const region = extendOutline(atEdge, { width: 1920, height: 1400 }, topology);
    expect(Math.min(...region.mesh.filter((_, i) => i % 2 === 1))).toBe(0);
    expect(region.box.y).toBe(0);
  });

  it('lets a swap draw the source over the forehead above the mesh, and leaves the neck below the chin as it was', () => {
    const change = changeOfSwap();
    expect(change(FOREHEAD, -0.04)).toBeGreaterThan(3);
    expect(change(CHIN, 0.04)).toBe(0);
  });
});

describe('fadeBeyondOutline', () => {
  it('is 1 inside the outline, about half way across the band above the forehead, and nearly 0 at its edge', () => {
    const { image, faces } = photos.get(4)!;
    const face = faces[0]!;
    const { box } = extendOutline(face, image, topology);
    const fade = fadeBeyondOutline(face, box, topology.triangles);
    const size = Math.min(face.box.width, face.box.height);
    const above = (share: number) => {
      const [x, y] = point(face.mesh, FOREHEAD).map(Math.round) as [number, number];
      return fade[(y - Math.round(share * size) - box.y) * box.width + x - box.x]!;
    };
    expect(above(-0.02)).toBe(1);
    expect(above(OUTLINE_EXTENSION / 2)).toBeGreaterThan(0.35);
    expect(above(OUTLINE_EXTENSION / 2)).toBeLessThan(0.65);
    expect(above(OUTLINE_EXTENSION * 0.95)).toBeLessThan(0.05);
  });

  it("lets a swap's forehead pass into the hairline instead of ending in a line at the band's edge", () => {
    const change = changeOfSwap();
    expect(change(FOREHEAD, 0)).toBeGreaterThan(10);
    expect(change(FOREHEAD, -OUTLINE_EXTENSION / 2)).toBeLessThan(0.8 * change(FOREHEAD, 0));
    expect(change(FOREHEAD, -OUTLINE_EXTENSION * 0.95)).toBeLessThan(0.1 * change(FOREHEAD, 0));
  });
});

/**
 * Swaps photo 6's first face into photo 4's first face; returns the mean absolute change over a 5x5
 * patch centred `offset` of the face size below (+) or above (-) a mesh point of the target face.
 */
function changeOfSwap(): (i: number, offset: number) => number {
  const { image: before, faces } = photos.get(4)!;
  const face = faces[0]!;
  const source = photos.get(6)!;
  const after = { ...before, rgb: Uint8Array.from(before.rgb) };
  swapFaceInto(after, face, prepareSource(source.image, source.faces[0]!, topology), { topology });
  const size = Math.min(face.box.width, face.box.height);
  return (i, offset) => {
    const [x, y] = point(face.mesh, i).map(Math.round) as [number, number];
    const cy = y + Math.round(offset * size);
    let sum = 0;
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const p = ((cy + dy) * after.width + x + dx) * 3;
        for (let k = 0; k < 3; k++) sum += Math.abs(after.rgb[p + k]! - before.rgb[p + k]!);
      }
    }
    return sum / 75;
  };
}
