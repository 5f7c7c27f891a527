import { copiedFloats, exportedFunctions, exportedMemory, HeapPlan, wasmKernel, type KernelInstance } from '../wasm/wasm-kernel';

/**
 * A large face's smooth steps (the tone transfer, the Poisson blend and the centre anchor) run on
 * a coarser grid: every cell averages `factor` x `factor` pixels of the box, so that its short
 * side is at most `SMOOTH_CELLS` cells. What those steps add to the warped face is smooth
 * (shading, a harmonic correction, one shift), so it is worked out on the grid and laid back over
 * the full-resolution face by bilinear interpolation, and the source's detail stays as sharp as
 * the warp drew it. On a 1280x720 video frame's 230x258 face the swap went from 37 to 20 ms (the
 * fastest of 60 runs) at 160 cells, with the quality report's figures within a point; at 100
 * cells, a 201x225 face 43 → 34 ms, and on the report's subset the same passes (margins' sums
 * within 1 %, face-centre tone worst 4.15 → 4.57).
 */
export const SMOOTH_CELLS = 100;
/**
 * The target's skin map (what stays in front of the new face) is judged on a finer grid, enlarged
 * the same way: a strand of hair across the face is a few pixels wide, and at 100 cells only 82 %
 * of one (a fringe: 65 %) was kept in front.
 */
export const SKIN_MAP_CELLS = 160;

interface WorkingGridKernel extends KernelInstance {
  shrink(values: number, sums: number, channels: number, width: number, height: number, factor: number, gridWidth: number, gridHeight: number): void;
  enlarge(
    coarse: number, defined: number, out: number, channels: number, gridWidth: number, width: number, height: number,
    acrossBefore: number, acrossAfter: number, acrossShare: number, downBefore: number, downAfter: number, downShare: number, row: number, rowWeight: number, add: number,
  ): void;
}

/** About 1 kB. The kept instance may grow to 16 MB of memory: the demo photos' largest face box (262x289) needs 1.1 MB. */
const gridKernelFor = wasmKernel<WorkingGridKernel>('./working-grid.wasm', 16 * 2 ** 20, (exports) => ({
  memory: exportedMemory(exports, 'working-grid.wasm'),
  ...exportedFunctions<WorkingGridKernel>(exports, 'working-grid.wasm', ['shrink', 'enlarge']),
}));

export interface WorkingGrid {
  /** Box pixels across (and down) one cell. */
  factor: number;
  width: number;
  height: number;
}

/**
 * The grid for a box: cells of one pixel (the box itself) up to `cells` across its short side, and
 * at least `smallestFactor` pixels across.
 */
export function workingGrid(width: number, height: number, { cells = SMOOTH_CELLS, smallestFactor = 1 } = {}): WorkingGrid {
  const factor = Math.max(smallestFactor, Math.ceil(Math.min(width, height) / cells));
  return { factor, width: Math.ceil(width / factor), height: Math.ceil(height / factor) };
}

/**
 * Per cell, the mean of the box's pixels in it (`channels` interleaved; cells at the right and
 * bottom edge may hold fewer pixels). Run in WebAssembly (working-grid.wat).
 */
export function shrinkValues(values: Float32Array, channels: number, width: number, height: number, grid: WorkingGrid): Float32Array {
  const plan = new HeapPlan();
  const at = { values: plan.take(values.length * 4), sums: plan.take(grid.width * grid.height * channels * 4) };
  const kernel = gridKernelFor(plan.size);
  new Float32Array(kernel.memory.buffer, at.values, values.length).set(values);
  kernel.shrink(at.values, at.sums, channels, width, height, grid.factor, grid.width, grid.height);
  return copiedFloats(kernel.memory, at.sums, grid.width * grid.height * channels);
}

/** 1 on the cells whose every pixel is set in `mask`. */
export function shrinkMask(mask: Uint8Array, width: number, height: number, grid: WorkingGrid): Uint8Array {
  const column = cellColumns(width, grid.factor);
  const out = new Uint8Array(grid.width * grid.height).fill(1);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / grid.factor) * grid.width;
    for (let x = 0; x < width; x++) if (!mask[y * width + x]) out[row + column[x]!] = 0;
  }
  return out;
}

/**
 * The grid's values at every box pixel, by bilinear interpolation between the cells' centres,
 * taken from the `defined` cells only (normalised; 0 where none of the four is defined). Every
 * cell is defined when no mask is given. Interpolated down first, once per pixel row over the
 * cells (the row's weights too), then across per pixel: two taps per pixel instead of four (a
 * 720p video frame's face enlarges four maps). Run in WebAssembly (working-grid.wat).
 */
export function enlargeValues(coarse: Float32Array, channels: number, grid: WorkingGrid, width: number, height: number, defined?: Uint8Array): Float32Array {
  return enlarge(coarse, channels, grid, width, height, defined);
}

/** `enlargeValues`, its values added to `onto` (changed in place) when that is given; the values otherwise. */
function enlarge(coarse: Float32Array, channels: number, grid: WorkingGrid, width: number, height: number, defined?: Uint8Array, onto?: Float32Array): Float32Array {
  const plan = new HeapPlan();
  const at = {
    coarse: plan.take(coarse.length * 4),
    defined: defined ? plan.take(defined.length) : 0,
    out: plan.take(width * height * channels * 4),
    tables: takeBetweenTables(plan, width, height),
    row: plan.take(grid.width * channels * 8),
    rowWeight: plan.take(grid.width * 8),
  };
  const kernel = gridKernelFor(plan.size);
  const { buffer } = kernel.memory;
  new Float32Array(buffer, at.coarse, coarse.length).set(coarse);
  // A mask is never at offset 0 (the grid's values come first): 0 tells the kernel there is none.
  if (defined) new Uint8Array(buffer, at.defined, defined.length).set(defined);
  writeBetweenTables(kernel.memory, at.tables, width, height, grid);
  const out = new Float32Array(buffer, at.out, width * height * channels);
  if (onto) out.set(onto);
  const { tables } = at;
  kernel.enlarge(at.coarse, at.defined, at.out, channels, grid.width, width, height, tables.acrossBefore, tables.acrossAfter, tables.acrossShare,
    tables.downBefore, tables.downAfter, tables.downShare, at.row, at.rowWeight, onto ? 1 : 0);
  if (!onto) return copiedFloats(kernel.memory, at.out, out.length);
  onto.set(out);
  return onto;
}

/** Points (x, y pairs) in the box's pixels moved to the grid's cells: a cell's centre is the middle of its pixels' centres. */
export function toGrid(points: Float32Array, grid: WorkingGrid): Float32Array {
  if (grid.factor === 1) return points;
  return points.map((v) => cellCoordinate(v, grid.factor));
}

/** Where a pixel position lies on a grid of cells `factor` pixels across, in cells (a cell's centre at its index). */
function cellCoordinate(x: number, factor: number): number {
  return (x + 0.5) / factor - 0.5;
}

/**
 * Adds to the full-resolution `face` (RGB, changed in place) what the smooth steps changed on the
 * grid: `toned` against `drawn`, interpolated from the `covered` cells. `toned` is overwritten.
 */
export function layBack(face: Float32Array, onGrid: { toned: Float32Array; drawn: Float32Array; covered: Uint8Array }, grid: WorkingGrid, width: number, height: number): void {
  const { toned, drawn } = onGrid;
  for (let i = 0; i < toned.length; i++) toned[i]! -= drawn[i]!;
  enlarge(toned, 3, grid, width, height, onGrid.covered, face);
}

/** Per pixel across a box's side, the cell it lies in. */
function cellColumns(size: number, factor: number): Int32Array {
  const out = new Int32Array(size);
  for (let x = 0; x < size; x++) out[x] = Math.floor(x / factor);
  return out;
}

/**
 * Per pixel along a side of `size` pixels, the two of `cells` cells (each `factor` pixels across)
 * whose centres it lies between and its share of the way from the first to the second; beyond the
 * outermost centres, that cell's alone.
 */
export function between(size: number, factor: number, cells: number): { before: Int32Array; after: Int32Array; share: Float64Array } {
  const before = new Int32Array(size), after = new Int32Array(size), share = new Float64Array(size);
  for (let x = 0; x < size; x++) {
    const at = Math.min(cells - 1, Math.max(0, cellCoordinate(x, factor)));
    before[x] = Math.floor(at);
    after[x] = Math.min(cells - 1, before[x]! + 1);
    share[x] = at - before[x]!;
  }
  return { before, after, share };
}

/** Where a kernel finds `between`'s tables for a box's columns and rows: each side's two cells (int32) and share (float64). */
export interface BetweenTables {
  acrossBefore: number;
  acrossAfter: number;
  acrossShare: number;
  downBefore: number;
  downAfter: number;
  downShare: number;
}

/** Room in a kernel's memory for the tables of a `width` x `height` box. */
export function takeBetweenTables(plan: HeapPlan, width: number, height: number): BetweenTables {
  return {
    acrossBefore: plan.take(width * 4),
    acrossAfter: plan.take(width * 4),
    acrossShare: plan.take(width * 8),
    downBefore: plan.take(height * 4),
    downAfter: plan.take(height * 4),
    downShare: plan.take(height * 8),
  };
}

/** `between`'s tables for a `width` x `height` box over `grid`, written where `at` says. */
export function writeBetweenTables(memory: WebAssembly.Memory, at: BetweenTables, width: number, height: number, grid: WorkingGrid): void {
  const { buffer } = memory;
  const across = between(width, grid.factor, grid.width);
  const down = between(height, grid.factor, grid.height);
  new Int32Array(buffer, at.acrossBefore, width).set(across.before);
  new Int32Array(buffer, at.acrossAfter, width).set(across.after);
  new Float64Array(buffer, at.acrossShare, width).set(across.share);
  new Int32Array(buffer, at.downBefore, height).set(down.before);
  new Int32Array(buffer, at.downAfter, height).set(down.after);
  new Float64Array(buffer, at.downShare, height).set(down.share);
}
