import { labToRgb, rgbToLab } from './lab-colour';

/**
 * Bounds on the contrast change. The source's contrast is its skin texture and the depth of its
 * features, which carry identity: matching the target's spread fully erased too much of it (the
 * identity margins of the demo cross-swap dropped), and a flat or noisy patch cannot blow the
 * face's texture up either.
 */
const MIN_SPREAD_RATIO = 0.8;
const MAX_SPREAD_RATIO = 1.25;

/**
 * Reinhard colour transfer in Lab: shifts and scales each channel of the warped source so that
 * its mean and spread over the face (`sample` pixels) match the target's there. Applied to every
 * `apply` pixel of `warped`, in place; `target` is the box's original RGB.
 */
export function transferColour(warped: Float32Array, target: Float32Array, sample: Int32Array, apply: Int32Array): void {
  if (sample.length === 0) return;
  const targetLab = Float32Array.from(target);
  rgbToLab(targetLab, sample);
  rgbToLab(warped, apply);
  const from = channelStats(warped, sample);
  const to = channelStats(targetLab, sample);
  const scale = [0, 1, 2].map((k) => clamp(to.spread[k]! / Math.max(from.spread[k]!, 1e-3), MIN_SPREAD_RATIO, MAX_SPREAD_RATIO));
  for (let n = 0; n < apply.length; n++) {
    for (let k = 0; k < 3; k++) {
      const i = apply[n]! * 3 + k;
      warped[i] = (warped[i]! - from.mean[k]!) * scale[k]! + to.mean[k]!;
    }
  }
  labToRgb(warped, apply);
}

function channelStats(pixels: Float32Array, indices: Int32Array): { mean: number[]; spread: number[] } {
  let s0 = 0, s1 = 0, s2 = 0, q0 = 0, q1 = 0, q2 = 0;
  for (let n = 0; n < indices.length; n++) {
    const i = indices[n]! * 3;
    const v0 = pixels[i]!, v1 = pixels[i + 1]!, v2 = pixels[i + 2]!;
    s0 += v0;
    s1 += v1;
    s2 += v2;
    q0 += v0 * v0;
    q1 += v1 * v1;
    q2 += v2 * v2;
  }
  const n = indices.length;
  const mean = [s0 / n, s1 / n, s2 / n];
  const spread = [q0, q1, q2].map((q, k) => Math.sqrt(Math.max(0, q / n - mean[k]! ** 2)));
  return { mean, spread };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
