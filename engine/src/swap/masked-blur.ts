import { copiedFloats, exportedFunctions, exportedMemory, HeapPlan, wasmKernel, type KernelInstance } from '../wasm/wasm-kernel';
import { gaussianInPlace, maskedGaussian, maskedMapGaussian } from './box-blur';
import { takeBetweenTables, writeBetweenTables } from './working-grid';

interface CoarseLowPassKernel extends KernelInstance {
  gather(values: number, mask: number, cells: number, width: number, height: number, factor: number, cellsAcross: number, cellsDown: number): void;
  interpolate(
    cells: number, cellsAcross: number, at: number, count: number, width: number, out: number,
    left: number, right: number, across: number, above: number, below: number, down: number,
  ): void;
  gatherMap(map: number, mask: number, cells: number, width: number, height: number, factor: number, cellsAcross: number, cellsDown: number): void;
  interpolateMap(cells: number, cellsAcross: number, width: number, height: number, out: number, left: number, right: number, across: number, above: number, below: number, down: number): void;
}

/** About 1.3 kB. The kept instance may grow to 16 MB of memory: the demo photos' largest face box (262x289) needs 1.5 MB. */
const coarseKernelFor = wasmKernel<CoarseLowPassKernel>('./coarse-low-pass.wasm', 16 * 2 ** 20, (exports) => ({
  memory: exportedMemory(exports, 'coarse-low-pass.wasm'),
  ...exportedFunctions<CoarseLowPassKernel>(exports, 'coarse-low-pass.wasm', ['gather', 'interpolate', 'gatherMap', 'interpolateMap']),
}));

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
  if (radius < COARSE_FROM_RADIUS) return maskedGaussian(values, mask, width, height, radius, at);
  const low = coarseLowPass(values, mask, width, height, radius, at);
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
  return radius >= COARSE_FROM_RADIUS ? coarseMapLowPass(map, width, height, radius, mask) : maskedMapGaussian(map, width, height, radius, mask);
}

/** `blurMap` on cells a quarter of the radius across (see `coarseLowPass`), interpolated back row by row; in WebAssembly (coarse-low-pass.wat). */
function coarseMapLowPass(map: Float32Array, width: number, height: number, radius: number, mask?: Uint8Array): Float32Array {
  const factor = Math.floor(radius / 4);
  const cw = Math.ceil(width / factor);
  const ch = Math.ceil(height / factor);
  const plan = new HeapPlan();
  // The cells come first, so no mask is at offset 0 (which tells the kernel there is none).
  const offsets = { cells: plan.take(cw * ch * 8), map: plan.take(map.length * 4), mask: mask ? plan.take(mask.length) : 0 };
  let kernel = coarseKernelFor(plan.size);
  new Float32Array(kernel.memory.buffer, offsets.map, map.length).set(map);
  if (mask) new Uint8Array(kernel.memory.buffer, offsets.mask, mask.length).set(mask);
  kernel.gatherMap(offsets.map, offsets.mask, offsets.cells, width, height, factor, cw, ch);
  const cells = copiedFloats(kernel.memory, offsets.cells, cw * ch * 2);
  averageCells(cells, 2, cw, ch, factor, width, height);
  gaussianInPlace(cells, 2, cw, ch, Math.round(radius / factor));
  const { place, size } = interpolationPlan(cells.length, width, height, 0, width * height);
  kernel = coarseKernelFor(size);
  new Float32Array(kernel.memory.buffer, place.cells, cells.length).set(cells);
  writeBetweenTables(kernel.memory, place.tables, width, height, { factor, width: cw, height: ch });
  const { tables } = place;
  kernel.interpolateMap(place.cells, cw, width, height, place.out, tables.acrossBefore, tables.acrossAfter, tables.acrossShare, tables.downBefore, tables.downAfter, tables.downShare);
  return copiedFloats(kernel.memory, place.out, width * height);
}

/**
 * The masked low-pass for a wide radius, on a coarser grid: the masked values and the mask are averaged
 * into cells a quarter of the radius across (only the mask's pixels are read: the others add
 * nothing), blurred there, and interpolated back at the pixels asked for. A low-pass that wide has
 * nothing finer than a cell to lose, and the shading low-pass (a fifth of the face) was most of the
 * colour step's time at full resolution. The gathering and the interpolation run in WebAssembly
 * (coarse-low-pass.wat); the result is a view of its memory, valid until its next call.
 */
function coarseLowPass(values: Float32Array, mask: Uint8Array, width: number, height: number, radius: number, at?: Int32Array): Float32Array {
  const factor = Math.floor(radius / 4);
  const cw = Math.ceil(width / factor);
  const ch = Math.ceil(height / factor);
  const count = at ? at.length : width * height;
  const plan = new HeapPlan();
  // The cells come first, so no list of pixels is at offset 0 (which tells the kernel there is none).
  const offsets = { cells: plan.take(cw * ch * 16), values: plan.take(values.length * 4), mask: plan.take(mask.length) };
  let kernel = coarseKernelFor(plan.size);
  new Float32Array(kernel.memory.buffer, offsets.values, values.length).set(values);
  new Uint8Array(kernel.memory.buffer, offsets.mask, mask.length).set(mask);
  kernel.gather(offsets.values, offsets.mask, offsets.cells, width, height, factor, cw, ch);
  const cells = copiedFloats(kernel.memory, offsets.cells, cw * ch * 4);
  averageCells(cells, 4, cw, ch, factor, width, height);
  gaussianInPlace(cells, 4, cw, ch, Math.round(radius / factor));
  // Bilinear interpolation from the cells' centres, each row's and column's cells and shares worked out once.
  const { place, size } = interpolationPlan(cells.length, width, height, at ? count : 0, count * 4);
  kernel = coarseKernelFor(size);
  new Float32Array(kernel.memory.buffer, place.cells, cells.length).set(cells);
  writeBetweenTables(kernel.memory, place.tables, width, height, { factor, width: cw, height: ch });
  if (at) new Int32Array(kernel.memory.buffer, place.at, count).set(at);
  const { tables } = place;
  kernel.interpolate(place.cells, cw, place.at, count, width, place.out, tables.acrossBefore, tables.acrossAfter, tables.acrossShare, tables.downBefore, tables.downAfter, tables.downShare);
  return new Float32Array(kernel.memory.buffer, place.out, count * 4);
}

/** Where the interpolation's inputs and output go in the kernel's memory: the cells first, then the listed pixels (`listed` of them, if any), the output (`outFloats`) and the tables. */
function interpolationPlan(cellFloats: number, width: number, height: number, listed: number, outFloats: number) {
  const plan = new HeapPlan();
  const place = {
    cells: plan.take(cellFloats * 4),
    at: listed > 0 ? plan.take(listed * 4) : 0,
    out: plan.take(outFloats * 4),
    tables: takeBetweenTables(plan, width, height),
  };
  return { place, size: plan.size };
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
