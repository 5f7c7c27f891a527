import { beforeAll, describe, expect, it } from 'vitest';
import { nearestFace } from '../../src/animation/face-motion';
import { decodeImage, type DecodedImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { loadHuman } from '../../src/faces/human';
import { meshTopology, type MeshTopology } from '../../src/faces/mesh-topology';
import { blendFaceShape } from '../../src/swap/face-shape';
import { prepareSource } from '../../src/swap/prepared-source';
import { swapFaceInto } from '../../src/swap/swap-face';
import { demoPhoto } from '../faces/fixtures';

// MediaPipe mesh points: the inner lips' middle, the right eye's lids' middle, the mouth's inner corners.
const [UPPER_LIP, LOWER_LIP, UPPER_LID, LOWER_LID, MOUTH_LEFT, MOUTH_RIGHT] = [13, 14, 159, 145, 78, 308];

const distance = (mesh: Float32Array, a: number, b: number) => Math.hypot(mesh[b * 2]! - mesh[a * 2]!, mesh[b * 2 + 1]! - mesh[a * 2 + 1]!);
/** The mouth's opening as a share of the face's height. */
const mouthOpening = (face: Face) => distance(face.mesh, UPPER_LIP, LOWER_LIP) / face.box.height;

let topology: MeshTopology;
const photos = new Map<number, { image: DecodedImage; faces: Face[] }>();

beforeAll(async () => {
  await loadHuman();
  topology = await meshTopology();
  for (const n of [1, 3, 4]) {
    const image = await decodeImage(await demoPhoto(n));
    photos.set(n, { image, faces: await detectFaces(image) });
  }
});

// Photo 1's face 2 laughs, mouth wide open; photo 4's face 0 smiles with closed lips; photo 3's face 2 smiles showing her teeth.
const face = (photo: number, index: number) => photos.get(photo)!.faces[index]!;

/** The target face after `source` is swapped into it, as the detector finds it again. */
async function swapped(source: [number, number], target: [number, number]): Promise<Face> {
  const { image } = photos.get(target[0])!;
  const result = { ...image, rgb: Uint8Array.from(image.rgb) };
  const original = face(...target);
  swapFaceInto(result, original, prepareSource(photos.get(source[0])!.image, face(...source), topology), { topology });
  return nearestFace(original, await detectFaces(result))!;
}

describe('keeping the target face expression', () => {
  it('shapes the mesh with the target mouth and eye openings and the source mouth width', () => {
    const [target, source] = [face(4, 0), face(1, 2)];
    expect(mouthOpening(source)).toBeGreaterThan(10 * mouthOpening(target));
    const shaped = blendFaceShape(target, source, topology.rings, { strength: 1, inPose: 0 });

    expect(distance(shaped, UPPER_LIP, LOWER_LIP)).toBeCloseTo(distance(target.mesh, UPPER_LIP, LOWER_LIP), 3);
    expect(distance(shaped, UPPER_LID, LOWER_LID)).toBeCloseTo(distance(target.mesh, UPPER_LID, LOWER_LID), 3);
    // The mouth's width moves at least halfway to the source's, at the target's face size.
    const scale = target.box.height / source.box.height;
    const sourceWidth = distance(source.mesh, MOUTH_LEFT, MOUTH_RIGHT) * scale;
    expect(distance(shaped, MOUTH_LEFT, MOUTH_RIGHT)).toBeGreaterThan(distance(target.mesh, MOUTH_LEFT, MOUTH_RIGHT) + 0.5 * (sourceWidth - distance(target.mesh, MOUTH_LEFT, MOUTH_RIGHT)));
  });

  it('keeps the outline of the target face where it was', () => {
    const [target, source] = [face(4, 0), face(1, 2)];
    const shaped = blendFaceShape(target, source, topology.rings, { strength: 1, inPose: 0 });
    for (let p = 0; p < topology.rings.length; p++) {
      if (topology.rings[p] !== 0) continue;
      expect(shaped[p * 2]).toBe(target.mesh[p * 2]);
      expect(shaped[p * 2 + 1]).toBe(target.mesh[p * 2 + 1]);
    }
  });

  it('keeps a closed mouth closed when the source laughs', async () => {
    const result = await swapped([1, 2], [4, 0]);
    const [target, source] = [mouthOpening(face(4, 0)), mouthOpening(face(1, 2))];
    expect(mouthOpening(result)).toBeLessThan(target + 0.15 * (source - target));
  });

  it('keeps an open smile open when the source closes her lips', async () => {
    const result = await swapped([4, 0], [3, 2]);
    const [target, source] = [mouthOpening(face(3, 2)), mouthOpening(face(4, 0))];
    expect(mouthOpening(result)).toBeGreaterThan(target - 0.3 * (target - source));
  });
});
