import { indicesOf } from './mask-indices';

/** Gauss-Seidel sweeps with over-relaxation on the full-resolution grid. */
export const FINE_ITERATIONS = 40;
const FINE_OMEGA = 1.8;
/** The coarse grid is about this many cells across; solving it first gives the fine sweeps a
 * start that is already right at low frequencies, where plain SOR converges slowly. */
const COARSE_CELLS = 48;
const COARSE_ITERATIONS = 150;
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
 * its border: first on a coarse grid, then refined by `FINE_ITERATIONS` SOR sweeps at full
 * resolution. Only border pixels that are skin on both sides (`skin`) pull, by at most
 * `BORDER_SPREAD`.
 * `region` must not touch the box's edge, and `g` must be defined on the region and on its
 * 4-neighbours.
 */
export function poissonBlend(g: Float32Array, t: Float32Array, region: Uint8Array, skin: Uint8Array, width: number, height: number): void {
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
  const correction = coarseCorrection(fixed, region, width, height);
  const row = width * 3;
  for (let iteration = 0; iteration < FINE_ITERATIONS; iteration++) {
    for (let n = 0; n < pixels.length; n++) {
      const end = pixels[n]! * 3 + 3;
      for (let i = end - 3; i < end; i++) {
        const sum = correction[i - 3]! + correction[i + 3]! + correction[i - row]! + correction[i + row]! + border[i]!;
        correction[i] = correction[i]! + FINE_OMEGA * (sum / 4 - correction[i]!);
      }
    }
  }
  for (let n = 0; n < pixels.length; n++) {
    const i = pixels[n]! * 3;
    g[i]! += correction[i]!;
    g[i + 1]! += correction[i + 1]!;
    g[i + 2]! += correction[i + 2]!;
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

/**
 * The correction solved on cells of `scale` x `scale` pixels: cells holding border pixels are
 * fixed to the mean of their fixed differences, cells wholly inside the region are unknowns. The result is
 * interpolated back to the region's pixels (0 elsewhere).
 */
function coarseCorrection(fixed: Float32Array, region: Uint8Array, width: number, height: number): Float32Array {
  const scale = Math.max(2, Math.ceil(Math.max(width, height) / COARSE_CELLS));
  const cw = Math.ceil(width / scale);
  const ch = Math.ceil(height / scale);
  const value = new Float32Array(cw * ch * 3);
  const fixedCount = new Uint32Array(cw * ch);
  const insideCount = new Uint32Array(cw * ch);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const cell = Math.floor(y / scale) * cw + Math.floor(x / scale);
      if (region[p]) {
        insideCount[cell]!++;
      } else if (isBorder(region, p, x, y, width, height)) {
        fixedCount[cell]!++;
        for (let k = 0; k < 3; k++) value[cell * 3 + k]! += fixed[p * 3 + k]!;
      }
    }
  }
  const unknown = new Int32Array(cw * ch);
  let unknowns = 0;
  for (let cell = 0; cell < cw * ch; cell++) {
    if (fixedCount[cell]) for (let k = 0; k < 3; k++) value[cell * 3 + k]! /= fixedCount[cell]!;
    else if (insideCount[cell]) unknown[unknowns++] = cell;
  }
  const omega = 2 / (1 + Math.sin(Math.PI / Math.max(cw, ch)));
  const row = cw * 3;
  for (let iteration = 0; iteration < COARSE_ITERATIONS; iteration++) {
    for (let n = 0; n < unknowns; n++) {
      const end = unknown[n]! * 3 + 3;
      for (let i = end - 3; i < end; i++) {
        const sum = value[i - 3]! + value[i + 3]! + value[i - row]! + value[i + row]!;
        value[i] = value[i]! + omega * (sum / 4 - value[i]!);
      }
    }
  }
  const known = new Uint8Array(cw * ch);
  for (let cell = 0; cell < cw * ch; cell++) known[cell] = fixedCount[cell] || insideCount[cell] ? 1 : 0;
  return upsample(value, known, cw, ch, scale, region, width, height);
}

function isBorder(region: Uint8Array, p: number, x: number, y: number, width: number, height: number): boolean {
  return (x > 0 && region[p - 1] === 1) || (x < width - 1 && region[p + 1] === 1) || (y > 0 && region[p - width] === 1) || (y < height - 1 && region[p + width] === 1);
}

/** Bilinear interpolation from cell centres, using only cells that hold a value. */
function upsample(value: Float32Array, known: Uint8Array, cw: number, ch: number, scale: number, region: Uint8Array, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const cy = Math.min(Math.max((y + 0.5) / scale - 0.5, 0), ch - 1);
    const y0 = Math.floor(cy), y1 = Math.min(y0 + 1, ch - 1), fy = cy - y0;
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (!region[p]) continue;
      const cx = Math.min(Math.max((x + 0.5) / scale - 0.5, 0), cw - 1);
      const x0 = Math.floor(cx), x1 = Math.min(x0 + 1, cw - 1), fx = cx - x0;
      let total = 0;
      total += addWeighted(out, p, value, known, y0 * cw + x0, (1 - fx) * (1 - fy));
      total += addWeighted(out, p, value, known, y0 * cw + x1, fx * (1 - fy));
      total += addWeighted(out, p, value, known, y1 * cw + x0, (1 - fx) * fy);
      total += addWeighted(out, p, value, known, y1 * cw + x1, fx * fy);
      if (total > 0) for (let k = 0; k < 3; k++) out[p * 3 + k]! /= total;
    }
  }
  return out;
}

/** Adds `weight` times the cell's value to pixel `p` of `out` if the cell holds one; returns the weight used. */
function addWeighted(out: Float32Array, p: number, value: Float32Array, known: Uint8Array, cell: number, weight: number): number {
  if (!known[cell]) return 0;
  for (let k = 0; k < 3; k++) out[p * 3 + k]! += weight * value[cell * 3 + k]!;
  return weight;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
