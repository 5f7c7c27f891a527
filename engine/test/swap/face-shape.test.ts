import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { hiddenFarSide } from '../../src/faces/hidden-far-side';
import { loadHuman } from '../../src/faces/human';
import { meshTopology, type MeshTopology } from '../../src/faces/mesh-topology';
import { blendFaceShape } from '../../src/swap/face-shape';
import { demoPhoto } from '../faces/fixtures';

// MediaPipe mesh points: the nose tip, the eyes' outer corners, the forehead's top and the chin.
const [NOSE_TIP, EYE_CORNERS, FOREHEAD, CHIN] = [1, [33, 263], 10, 152];

let topology: MeshTopology;
let profile: Face;
let frontal: Face;

beforeAll(async () => {
  await loadHuman();
  topology = await meshTopology();
  // Photo 2's face 0 is seen in profile; photo 1's face 2 nearly from the front.
  profile = (await detectFaces(await decodeImage(await demoPhoto(2))))[0]!;
  frontal = (await detectFaces(await decodeImage(await demoPhoto(1))))[2]!;
});

const at = (mesh: Float32Array, p: number) => [mesh[p * 2]!, mesh[p * 2 + 1]!] as const;
const gap = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);

describe('giving a target face the source face proportions', () => {
  it('keeps the far eye of a profile behind its nose, not out over the background', () => {
    const height = gap(at(profile.mesh, FOREHEAD), at(profile.mesh, CHIN));
    // The far eye is the one whose outer corner lies nearer the nose tip.
    const far = EYE_CORNERS.reduce((a, b) => (gap(at(profile.mesh, a), at(profile.mesh, NOSE_TIP)) < gap(at(profile.mesh, b), at(profile.mesh, NOSE_TIP)) ? a : b));
    const shaped = (inPose: number) => blendFaceShape(profile, frontal, topology.rings, { strength: 1, inPose });
    const inPose = hiddenFarSide(profile.mesh, topology.rings);
    expect(gap(at(shaped(inPose), far), at(profile.mesh, far))).toBeLessThan(0.04 * height);
    // Aligned in the image plane, the frontal source's far eye lands a tenth of the face away, on the wall.
    expect(gap(at(shaped(0), far), at(profile.mesh, far))).toBeGreaterThan(0.08 * height);
  });

  it('keeps both eyes of a frontal target apart when the source is seen in profile', () => {
    const spacing = (mesh: Float32Array) => gap(at(mesh, EYE_CORNERS[0]!), at(mesh, EYE_CORNERS[1]!));
    const shaped = (inPose: number) => blendFaceShape(frontal, profile, topology.rings, { strength: 1, inPose });
    expect(spacing(shaped(hiddenFarSide(profile.mesh, topology.rings)))).toBeGreaterThan(0.9 * spacing(frontal.mesh));
    // Aligned in the image plane, the profile's squeezed far side pulled the eyes a third closer together.
    expect(spacing(shaped(0))).toBeLessThan(0.75 * spacing(frontal.mesh));
  });
});
