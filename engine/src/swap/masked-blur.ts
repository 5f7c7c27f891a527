import { gaussianInPlace } from './box-blur';
import { scratchFloats } from './scratch-floats';
import { between } from './working-grid';

/**
 * From this box radius on, a low-pass is taken on a grid of cells a quarter of the radius across.
 * From cells of two pixels: the six passes at full resolution cost more than gathering the cells
 * and interpolating back (a 300x380 box, radius 10: 10.5 ms against 4.8; from 12, as before, the
 * skin patch and the other view's light match of every face of 100-200 px ran at full resolution).
 */
const COARSE_FROM_RADIUS = 8;

/**
 * Low-pass of a 3-channel float image taken from the `mask` pixels only (normalised convolution):
 * each output pixel is the weighted mean of the masked pixels around it, so pixels left out of the
 * mask (eyes, lips, hair) neither darken nor tint it, and pixels outside the mask get the mean of
 * their masked neighbourhood. Three passes of a separable box blur of `radius` approximate a
 * Gaussian of sigma ~ `radius` (on a coarser grid for a wide radius, see `coarseLowPass`). Returns
 * the blurred channels and the blurred mask (the share of masked pixels nearby, 0 where there were
 * none), for the pixels listed in `at` in that order (n-th listed pixel at n), or for every pixel
 * when `at` is not given: a swap reads them only on the pixels the new face covers, and on a wide
 * radius the values elsewhere are never worked out.
 */
export function maskedBlur(values: Float32Array, mask: Uint8Array, width: number, height: number, radius: number, at?: Int32Array): { mean: Float32Array; weight: Float32Array } {
  const low = radius < COARSE_FROM_RADIUS ? fineLowPass(values, mask, width, height, radius, at) : coarseLowPass(values, mask, width, height, radius, at);
  const count = low.length / 4;
  const mean = new Float32Array(count * 3);
  const weight = new Float32Array(count);
  for (let n = 0; n < count; n++) {
    const w = low[n * 4 + 3]!;
    weight[n] = w;
    if (w < 1e-6) continue;
    mean[n * 3] = low[n * 4]! / w;
    mean[n * 3 + 1] = low[n * 4 + 1]! / w;
    mean[n * 3 + 2] = low[n * 4 + 2]! / w;
  }
  return { mean, weight };
}

/**
 * A one-channel map low-passed like `maskedBlur`: each output is the mean of the pixels around it
 * that lie inside the map and in `mask` (every pixel when no mask is given, 0 where none is near);
 * for a wide radius on a coarser grid, as `coarseLowPass` does.
 */
export function blurMap(map: Float32Array, width: number, height: number, radius: number, mask?: Uint8Array): Float32Array {
  if (radius >= COARSE_FROM_RADIUS) return coarseMapLowPass(map, width, height, radius, mask);
  const stack = scratchFloats('stack', map.length * 2);
  for (let p = 0; p < map.length; p++) {
    const w = mask ? mask[p]! : 1;
    stack[p * 2] = w * map[p]!;
    stack[p * 2 + 1] = w;
  }
  gaussianInPlace(stack, 2, width, height, radius);
  const out = new Float32Array(map.length);
  for (let p = 0; p < map.length; p++) out[p] = ratio(stack[p * 2]!, stack[p * 2 + 1]!);
  return out;
}

/** A low-passed masked value over the low-passed mask: the mean of the masked pixels nearby, 0 where there were none. */
const ratio = (value: number, weight: number) => (weight > 1e-6 ? value / weight : 0);

/** `blurMap` on cells a quarter of the radius across (see `coarseLowPass`), interpolated back row by row. */
function coarseMapLowPass(map: Float32Array, width: number, height: number, radius: number, mask?: Uint8Array): Float32Array {
  const factor = Math.floor(radius / 4);
  const cw = Math.ceil(width / factor);
  const ch = Math.ceil(height / factor);
  const cells = new Float32Array(cw * ch * 2);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / factor) * cw;
    for (let x0 = 0; x0 < width; x0 += factor) {
      const cell = (row + x0 / factor) * 2;
      let sum = 0, n = 0;
      for (let p = y * width + x0, end = y * width + Math.min(x0 + factor, width); p < end; p++) {
        if (mask && !mask[p]) continue;
        sum += map[p]!;
        n += 1;
      }
      cells[cell]! += sum;
      cells[cell + 1]! += n;
    }
  }
  averageCells(cells, 2, cw, ch, factor, width, height);
  gaussianInPlace(cells, 2, cw, ch, Math.round(radius / factor));
  const { before: left, after: right, share: across } = between(width, factor, cw);
  const rows = between(height, factor, ch);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const above = rows.before[y]! * cw * 2, below = rows.after[y]! * cw * 2;
    const fy = rows.share[y]!;
    for (let x = 0, p = y * width; x < width; x++, p++) {
      const fx = across[x]!;
      const a = above + left[x]! * 2, b = above + right[x]! * 2, c = below + left[x]! * 2, d = below + right[x]! * 2;
      const topValue = cells[a]! + fx * (cells[b]! - cells[a]!), bottomValue = cells[c]! + fx * (cells[d]! - cells[c]!);
      const topWeight = cells[a + 1]! + fx * (cells[b + 1]! - cells[a + 1]!), bottomWeight = cells[c + 1]! + fx * (cells[d + 1]! - cells[c + 1]!);
      out[p] = ratio(topValue + fy * (bottomValue - topValue), topWeight + fy * (bottomWeight - topWeight));
    }
  }
  return out;
}

/** The masked values and the mask as four interleaved channels (0 off the mask), low-passed at full resolution; for the pixels of `at`, or all. */
function fineLowPass(values: Float32Array, mask: Uint8Array, width: number, height: number, radius: number, at?: Int32Array): Float32Array {
  const stack = scratchFloats('stack', width * height * 4).fill(0);
  for (let p = 0; p < mask.length; p++) {
    if (!mask[p]) continue;
    stack[p * 4] = values[p * 3]!;
    stack[p * 4 + 1] = values[p * 3 + 1]!;
    stack[p * 4 + 2] = values[p * 3 + 2]!;
    stack[p * 4 + 3] = 1;
  }
  gaussianInPlace(stack, 4, width, height, radius);
  if (!at) return stack;
  const out = scratchFloats('low', at.length * 4);
  for (let n = 0; n < at.length; n++) for (let k = 0; k < 4; k++) out[n * 4 + k] = stack[at[n]! * 4 + k]!;
  return out;
}

/**
 * `fineLowPass` for a wide radius, on a coarser grid: the masked values and the mask are averaged
 * into cells a quarter of the radius across (only the mask's pixels are read: the others add
 * nothing), blurred there, and interpolated back at the pixels asked for. A low-pass that wide has
 * nothing finer than a cell to lose, and the shading low-pass (a fifth of the face) was most of the
 * colour step's time at full resolution.
 */
function coarseLowPass(values: Float32Array, mask: Uint8Array, width: number, height: number, radius: number, at?: Int32Array): Float32Array {
  const factor = Math.floor(radius / 4);
  const cw = Math.ceil(width / factor);
  const ch = Math.ceil(height / factor);
  const cells = new Float32Array(cw * ch * 4);
  // Each row of a cell is summed in locals, rounded as a float32 sum in the cell itself would be.
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / factor) * cw;
    for (let x0 = 0; x0 < width; x0 += factor) {
      const cell = (row + x0 / factor) * 4;
      // Plain locals, not destructured from an array: that allocated an array and boxed numbers
      // per cell row, most of the garbage a video frame's swap left behind.
      let r = cells[cell]!, g = cells[cell + 1]!, b = cells[cell + 2]!, n = cells[cell + 3]!;
      for (let p = y * width + x0, end = y * width + Math.min(x0 + factor, width); p < end; p++) {
        if (!mask[p]) continue;
        r = Math.fround(r + values[p * 3]!);
        g = Math.fround(g + values[p * 3 + 1]!);
        b = Math.fround(b + values[p * 3 + 2]!);
        n += 1;
      }
      cells[cell] = r;
      cells[cell + 1] = g;
      cells[cell + 2] = b;
      cells[cell + 3] = n;
    }
  }
  averageCells(cells, 4, cw, ch, factor, width, height);
  gaussianInPlace(cells, 4, cw, ch, Math.round(radius / factor));
  // Bilinear interpolation from the cells' centres, each row's and column's cells and shares worked out once.
  const { before: left, after: right, share: across } = between(width, factor, cw);
  const { before: above, after: below, share: down } = between(height, factor, ch);
  const count = at ? at.length : width * height;
  const out = scratchFloats('low', count * 4);
  for (let n = 0; n < count; n++) {
    const p = at ? at[n]! : n;
    const x = p % width, y = (p - x) / width;
    const fy = down[y]!;
    const fx = across[x]!;
    const a = (above[y]! * cw + left[x]!) * 4, b = (above[y]! * cw + right[x]!) * 4;
    const c = (below[y]! * cw + left[x]!) * 4, d = (below[y]! * cw + right[x]!) * 4;
    for (let k = 0; k < 4; k++) {
      const top = cells[a + k]! + fx * (cells[b + k]! - cells[a + k]!);
      const bottom = cells[c + k]! + fx * (cells[d + k]! - cells[c + k]!);
      out[n * 4 + k] = top + fy * (bottom - top);
    }
  }
  return out;
}

/** Cells' sums made means: every pixel of a cell counts, in the mask or not (a cell is as many rows tall and columns wide as lie in the box). */
function averageCells(cells: Float32Array, channels: number, cw: number, ch: number, factor: number, width: number, height: number): void {
  for (let cy = 0; cy < ch; cy++) {
    const rows = Math.min(factor, height - cy * factor);
    for (let cx = 0; cx < cw; cx++) {
      const count = rows * Math.min(factor, width - cx * factor);
      for (let k = 0; k < channels; k++) cells[(cy * cw + cx) * channels + k]! /= count;
    }
  }
}
