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
 * bottom edge may hold fewer pixels). Three channels, the only use on a video's every frame, are
 * summed spelt out, and each cell's pixel count follows from its place: about 40 % less time.
 */
export function shrinkValues(values: Float32Array, channels: number, width: number, height: number, grid: WorkingGrid): Float32Array {
  const { factor } = grid;
  const column = cellColumns(width, factor);
  const sums = new Float32Array(grid.width * grid.height * channels);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / factor) * grid.width;
    if (channels === 3) {
      for (let x = 0, p = y * width * 3; x < width; x++, p += 3) {
        const c = (row + column[x]!) * 3;
        sums[c]! += values[p]!;
        sums[c + 1]! += values[p + 1]!;
        sums[c + 2]! += values[p + 2]!;
      }
      continue;
    }
    for (let x = 0, p = y * width * channels; x < width; x++) {
      for (let k = 0, c = (row + column[x]!) * channels; k < channels; k++) sums[c + k]! += values[p++]!;
    }
  }
  for (let cy = 0; cy < grid.height; cy++) {
    const rows = Math.min(factor, height - cy * factor);
    for (let cx = 0; cx < grid.width; cx++) {
      const count = rows * Math.min(factor, width - cx * factor);
      for (let k = 0, c = (cy * grid.width + cx) * channels; k < channels; k++) sums[c + k]! /= count;
    }
  }
  return sums;
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
 * 720p video frame's face enlarges four maps).
 */
export function enlargeValues(coarse: Float32Array, channels: number, grid: WorkingGrid, width: number, height: number, defined?: Uint8Array): Float32Array {
  const out = new Float32Array(width * height * channels);
  const across = between(width, grid.factor, grid.width);
  const down = between(height, grid.factor, grid.height);
  const row = new Float64Array(grid.width * channels);
  const rowWeight = new Float64Array(grid.width);
  for (let y = 0; y < height; y++) {
    const top = down.before[y]! * grid.width, bottom = down.after[y]! * grid.width, ty = down.share[y]!;
    for (let cell = 0; cell < grid.width; cell++) {
      const wt = defined ? (1 - ty) * defined[top + cell]! : 1 - ty;
      const wb = defined ? ty * defined[bottom + cell]! : ty;
      rowWeight[cell] = wt + wb;
      for (let k = 0; k < channels; k++) row[cell * channels + k] = wt * coarse[(top + cell) * channels + k]! + wb * coarse[(bottom + cell) * channels + k]!;
    }
    for (let x = 0, p = y * width * channels; x < width; x++, p += channels) {
      const tx = across.share[x]!;
      const a = across.before[x]!, b = across.after[x]!;
      let wa = 1 - tx, wb = tx;
      if (defined) {
        const total = wa * rowWeight[a]! + wb * rowWeight[b]!;
        if (total < 1e-6) continue;
        wa /= total;
        wb /= total;
      }
      for (let k = 0; k < channels; k++) out[p + k] = wa * row[a * channels + k]! + wb * row[b * channels + k]!;
    }
  }
  return out;
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
  const change = enlargeValues(toned, 3, grid, width, height, onGrid.covered);
  for (let i = 0; i < change.length; i++) face[i]! += change[i]!;
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
