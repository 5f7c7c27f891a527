import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { hiddenFarSide, seenInProfile } from '../../src/faces/hidden-far-side';
import { loadHuman } from '../../src/faces/human';
import { meshTopology, type MeshTopology } from '../../src/faces/mesh-topology';
import { demoPhoto, demoPhotoAs } from './fixtures';

let topology: MeshTopology;
const faces = new Map<number, Face[]>();

beforeAll(async () => {
  await loadHuman();
  topology = await meshTopology();
  for (const n of [2, 3]) faces.set(n, await detectFaces(await decodeImage(await demoPhoto(n))));
});

describe('a face side hidden behind the nose', () => {
  it('finds the far side of a face seen in profile hidden', () => {
    // Photo 2's face 0 looks to the left in profile; her nose tip stands out beyond her far cheek.
    expect(hiddenFarSide(faces.get(2)![0]!.mesh, topology.rings)).toBe(1);
  });

  it('finds nothing hidden on faces turned a little or in three-quarter view', () => {
    for (const face of [...faces.get(2)!.slice(1), ...faces.get(3)!]) expect(hiddenFarSide(face.mesh, topology.rings)).toBe(0);
  });

  it('finds nothing hidden on a mesh with no height', () => {
    expect(hiddenFarSide(new Float32Array(936), topology.rings)).toBe(0);
  });
});

describe('a face seen in profile', () => {
  it('finds the face in profile wholly so at every size, and the face turned three-quarters not at all', async () => {
    for (const width of [640, 960, 1920]) {
      // Photo 5's face 1 is turned far, but both her eyes are in view.
      const [profile, threeQuarter] = await Promise.all([2, 5].map(async (n) => detectFaces(await decodeImage(await demoPhotoAs(n, width, 'png')))));
      expect(seenInProfile(profile![0]!.mesh, topology.rings)).toBe(1);
      expect(seenInProfile(threeQuarter![1]!.mesh, topology.rings)).toBe(0);
    }
  });

  it('finds no face of the other demo photos in profile', () => {
    for (const face of [...faces.get(2)!.slice(1), ...faces.get(3)!]) expect(seenInProfile(face.mesh, topology.rings)).toBe(0);
  });
});
