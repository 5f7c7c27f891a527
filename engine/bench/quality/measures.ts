import type { RgbImage } from '../../src/faces/decode-image';
import type { Face } from '../../src/faces/detect-faces';
import { faceDistance } from '../../src/faces/face-distance';
import type { Recogniser } from '../../src/faces/human';
import type { MeshTopology } from '../../src/faces/mesh-topology';
import { extendOutline } from '../../src/swap/extend-outline';
import { maskedBlur } from '../../src/swap/masked-blur';
import { paintTriangles } from '../../src/swap/rasterise-mesh';
import { toBox } from '../../src/swap/warp-face';
import type { SeenFace } from './faces';

/** Per recogniser: distance to the replaced face minus distance to the source (> 0: the source's identity). */
export function identityMargins(swapped: SeenFace, original: SeenFace, source: SeenFace): Record<Recogniser, number> {
  const margin = (r: Recogniser) => faceDistance(swapped.descriptors[r], original.descriptors[r]) - faceDistance(swapped.descriptors[r], source.descriptors[r]);
  return { faceres: margin('faceres'), 'faceres-deep': margin('faceres-deep') };
}

/** Mean distance of the result's landmarks from the target's, as a share of the face's short side. */
export function poseOffset(swapped: Face, original: Face): number {
  let sum = 0;
  for (let i = 0; i < original.mesh.length; i += 2) sum += Math.hypot(swapped.mesh[i]! - original.mesh[i]!, swapped.mesh[i + 1]! - original.mesh[i + 1]!);
  return sum / (original.mesh.length / 2) / Math.min(original.box.width, original.box.height);
}

const luma = (image: RgbImage, p: number) => 0.299 * image.rgb[p * 3]! + 0.587 * image.rgb[p * 3 + 1]! + 0.114 * image.rgb[p * 3 + 2]!;

/**
 * Seam: the gradient energy (mean squared luma gradient) in a band along the edge of what the swap
 * replaced (the face mesh's outline, reaching out at the forehead and temples: `extendOutline`),
 * about 3 % of the face size either side, in the result over the same pixels of the original.
 * 1 adds no edge; a visible seam or a pasted-mask outline shows as well above 1.
 */
export function seamRatio(original: RgbImage, result: RgbImage, face: Face, topology: MeshTopology): number {
  const { box, mesh } = extendOutline(face, original, topology);
  const all = new Uint8Array(topology.triangles.length / 3).fill(1);
  const inside = paintTriangles(toBox(mesh, box), topology.triangles, all, box.width, box.height);
  const ones = new Float32Array(box.width * box.height * 3);
  const radius = Math.max(2, Math.round(0.03 * Math.min(face.box.width, face.box.height)));
  const { weight } = maskedBlur(ones, inside, box.width, box.height, radius);
  let before = 0;
  let after = 0;
  for (let y = 1; y < box.height - 1; y++) {
    for (let x = 1; x < box.width - 1; x++) {
      const w = weight[y * box.width + x]!;
      if (w < 0.1 || w > 0.9) continue;
      const p = (box.y + y) * original.width + box.x + x;
      const energy = (image: RgbImage) => (luma(image, p + 1) - luma(image, p - 1)) ** 2 + (luma(image, p + original.width) - luma(image, p - original.width)) ** 2;
      before += energy(original);
      after += energy(result);
    }
  }
  return after / Math.max(before, 1e-6);
}
