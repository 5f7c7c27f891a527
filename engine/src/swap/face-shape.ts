import { alignInPlane, alignInPose, type MeshPoints } from './align-pose';
import { keepExpression } from './keep-expression';

/** Mesh rings over which the shape change ramps up from the outline. */
const RAMP_RINGS = 3;

/**
 * Moves the inner points of the target's mesh towards the source face's proportions, so the
 * swapped face takes the source's eye spacing, nose length and mouth width (much of what
 * identifies a face) while its outline, and so its seam with the target, stays where it was.
 *
 * The source mesh is first aligned on the target mesh by the least-squares similarity transform
 * in the image plane (scale, rotation, shift), which removes position and size but keeps shape.
 * By `inPose` (0..1; where either face is seen in profile, its far side hidden behind its nose:
 * `hiddenFarSide`) it is aligned in 3D instead, turned in depth into the target's pose
 * (`alignInPose`; the outline's points, which `extendOutline` moves out in the image plane, left
 * out of the fit): aligned in the plane, a frontal source kept its far eye and cheek beside the
 * near ones, drawn out over the background beyond a profile target's nose, and a profile source
 * pulled a frontal target's eyes together. Turned in depth on every pair, the recognisers found
 * the results further from their sources (all 462 pairs of the quality report: identity by both
 * 382 → 351), and on three-quarter targets the mesh's depth misplaced the nose.
 *
 * Each point then moves by `strength` times its offset to the aligned source, ramping from 0 on
 * the face outline up to full strength `RAMP_RINGS` rings of mesh edges inside it, so that no
 * triangle folds. The proportions are the source's, the expression stays the target's
 * (`keepExpression`): how open its mouth and eyes are.
 */
export function blendFaceShape(target: MeshPoints, source: MeshPoints, rings: Uint8Array, { strength, inPose }: { strength: number; inPose: number }): Float32Array {
  const { mesh } = target;
  const aligned = alignInPlane(source.mesh, mesh);
  if (inPose > 0) {
    const turned = alignInPose(source, target, (point) => rings[point]! > 0);
    for (let i = 0; i < aligned.length; i++) aligned[i] = aligned[i]! + inPose * (turned[i]! - aligned[i]!);
  }
  const out = new Float32Array(mesh.length);
  const ramp = new Float32Array(mesh.length / 2);
  for (let i = 0; i < mesh.length / 2; i++) {
    ramp[i] = Math.min(1, rings[i]! / RAMP_RINGS);
    const w = strength * ramp[i]!;
    out[i * 2] = mesh[i * 2]! + w * (aligned[i * 2]! - mesh[i * 2]!);
    out[i * 2 + 1] = mesh[i * 2 + 1]! + w * (aligned[i * 2 + 1]! - mesh[i * 2 + 1]!);
  }
  return keepExpression(out, mesh, ramp);
}
