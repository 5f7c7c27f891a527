import { keepExpression } from './keep-expression';

/** Mesh rings over which the shape change ramps up from the outline. */
const RAMP_RINGS = 3;

/**
 * Moves the inner points of the target's mesh towards the source face's proportions, so the
 * swapped face takes the source's eye spacing, nose length and mouth width (much of what
 * identifies a face) while its outline, and so its seam with the target, stays where it was.
 *
 * The source mesh is first aligned on the target mesh by the least-squares similarity transform
 * (scale, rotation, shift), which removes position and size but keeps shape. Each point then
 * moves by `strength` times its offset to the aligned source, ramping from 0 on the face outline
 * up to full strength `RAMP_RINGS` rings of mesh edges inside it, so that no triangle folds.
 * The proportions are the source's, the expression stays the target's (`keepExpression`): how
 * open its mouth and eyes are.
 */
export function blendFaceShape(target: Float32Array, source: Float32Array, rings: Uint8Array, strength: number): Float32Array {
  const aligned = alignSimilarity(source, target);
  const out = new Float32Array(target.length);
  const ramp = new Float32Array(target.length / 2);
  for (let i = 0; i < target.length / 2; i++) {
    ramp[i] = Math.min(1, rings[i]! / RAMP_RINGS);
    const w = strength * ramp[i]!;
    out[i * 2] = target[i * 2]! + w * (aligned[i * 2]! - target[i * 2]!);
    out[i * 2 + 1] = target[i * 2 + 1]! + w * (aligned[i * 2 + 1]! - target[i * 2 + 1]!);
  }
  return keepExpression(out, target, ramp);
}

/** `from` mapped by the similarity transform that best fits it onto `to` (least squares). */
function alignSimilarity(from: Float32Array, to: Float32Array): Float32Array {
  const n = from.length / 2;
  let fx = 0, fy = 0, tx = 0, ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i * 2]!;
    fy += from[i * 2 + 1]!;
    tx += to[i * 2]!;
    ty += to[i * 2 + 1]!;
  }
  fx /= n; fy /= n; tx /= n; ty /= n;
  // With centred points a (from) and b (to), the best b ~ [[p, -q], [q, p]] a has
  // p = sum(a.b) / |a|^2 and q = sum(a x b) / |a|^2.
  let dot = 0, cross = 0, norm = 0;
  for (let i = 0; i < n; i++) {
    const ax = from[i * 2]! - fx, ay = from[i * 2 + 1]! - fy;
    const bx = to[i * 2]! - tx, by = to[i * 2 + 1]! - ty;
    dot += ax * bx + ay * by;
    cross += ax * by - ay * bx;
    norm += ax * ax + ay * ay;
  }
  const p = dot / norm, q = cross / norm;
  const out = new Float32Array(from.length);
  for (let i = 0; i < n; i++) {
    const ax = from[i * 2]! - fx, ay = from[i * 2 + 1]! - fy;
    out[i * 2] = tx + p * ax - q * ay;
    out[i * 2 + 1] = ty + q * ax + p * ay;
  }
  return out;
}
