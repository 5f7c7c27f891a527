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

/**
 * Three passes of a separable box blur of `radius` over an interleaved image of `channels`
 * channels (an even number), in place (approximately a Gaussian of sigma ~ `radius`). Two buffers
 * are written in turn: a swap runs several of these per video frame.
 */
function gaussianInPlace(stack: Float32Array, channels: number, width: number, height: number, radius: number): void {
  const spare = scratchFloats('spare', stack.length);
  for (let pass = 0; pass < 3; pass++) {
    for (let first = 0; first < channels; first += 2) blurRows(stack, spare, first, channels, width, height, radius);
    blurColumns(spare, stack, width * channels, height, radius);
  }
}

/**
 * Box-blurs channels `first` and `first + 1` of `rows` rows of `length` pixels of `channels`
 * channels into `out`, zero beyond the ends. Two channels at a time, their sums in locals: one
 * channel at a time, or all in an array, took half as long again (the blur is a tenth of a 720p
 * frame's swap). The window's three stretches are looped apart (entering, full, leaving) so the
 * inner loops carry no bounds tests.
 */
function blurRows(input: Float32Array, out: Float32Array, first: number, channels: number, length: number, rows: number, radius: number): void {
  const span = 2 * radius + 1;
  const enter = Math.min(radius + 1, length);
  const ahead = (radius + 1) * channels;
  const behind = radius * channels;
  for (let row = 0; row < rows; row++) {
    const base = row * length * channels + first;
    let s0 = 0;
    let s1 = 0;
    for (let i = 0, p = base; i < enter; i++, p += channels) {
      s0 += input[p]!;
      s1 += input[p + 1]!;
    }
    let i = 0;
    let o = base;
    for (; i < length && i - radius < 0; i++, o += channels) {
      out[o] = s0 / span;
      out[o + 1] = s1 / span;
      if (i + radius + 1 < length) {
        s0 += input[o + ahead]!;
        s1 += input[o + ahead + 1]!;
      }
    }
    for (; i + radius + 1 < length; i++, o += channels) {
      out[o] = s0 / span;
      out[o + 1] = s1 / span;
      s0 += input[o + ahead]! - input[o - behind]!;
      s1 += input[o + ahead + 1]! - input[o - behind + 1]!;
    }
    for (; i < length; i++, o += channels) {
      out[o] = s0 / span;
      out[o + 1] = s1 / span;
      s0 -= input[o - behind]!;
      s1 -= input[o - behind + 1]!;
    }
  }
}

/**
 * The same box blur down the columns of `rows` rows of `rowLength` floats, every column at once,
 * row by row (walked column by column, each step jumps a row ahead in memory). The same sums in the
 * same order as along a row, so the result does not depend on the way through.
 */
function blurColumns(input: Float32Array, out: Float32Array, rowLength: number, rows: number, radius: number): void {
  const span = 2 * radius + 1;
  const sums = scratchFloats64(rowLength);
  for (let i = 0, enter = Math.min(radius + 1, rows); i < enter; i++) {
    for (let j = 0, at = i * rowLength; j < rowLength; j++) sums[j]! += input[at + j]!;
  }
  for (let i = 0; i < rows; i++) {
    const row = i * rowLength;
    const adding = i + radius + 1 < rows ? (i + radius + 1) * rowLength : -1;
    const leaving = i - radius >= 0 ? (i - radius) * rowLength : -1;
    if (adding >= 0 && leaving >= 0) {
      for (let j = 0; j < rowLength; j++) {
        out[row + j] = sums[j]! / span;
        sums[j]! += input[adding + j]! - input[leaving + j]!;
      }
    } else if (adding >= 0) {
      for (let j = 0; j < rowLength; j++) {
        out[row + j] = sums[j]! / span;
        sums[j]! += input[adding + j]!;
      }
    } else if (leaving >= 0) {
      for (let j = 0; j < rowLength; j++) {
        out[row + j] = sums[j]! / span;
        sums[j]! -= input[leaving + j]!;
      }
    } else {
      for (let j = 0; j < rowLength; j++) out[row + j] = sums[j]! / span;
    }
  }
}

let columnSums = new Float64Array(0);

/** Zeroed double-precision sums for `blurColumns`, the row's worth kept between calls. */
function scratchFloats64(size: number): Float64Array {
  if (columnSums.length < size) columnSums = new Float64Array(size);
  return columnSums.subarray(0, size).fill(0);
}
