import { describe, expect, it } from 'vitest';
import { between, enlargeValues, layBack, shrinkMask, shrinkValues, toGrid, workingGrid, type WorkingGrid } from '../../src/swap/working-grid';

/** A one-channel box whose value at (x, y) is `f(x, y)`. */
function boxOf(width: number, height: number, f: (x: number, y: number) => number): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[y * width + x] = f(x, y);
  return out;
}

/** Cell means in plain JavaScript, as the kernel promises them: each pixel added into its cell's float32 sum in turn. */
function referenceShrink(values: Float32Array, channels: number, width: number, height: number, grid: WorkingGrid): Float32Array {
  const sums = new Float32Array(grid.width * grid.height * channels);
  const counts = new Float32Array(grid.width * grid.height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = Math.floor(y / grid.factor) * grid.width + Math.floor(x / grid.factor);
      counts[cell]!++;
      for (let k = 0; k < channels; k++) sums[cell * channels + k]! += values[(y * width + x) * channels + k]!;
    }
  }
  return sums.map((sum, i) => sum / counts[Math.floor(i / channels)]!);
}

/** Bilinear enlargement in plain JavaScript (float64, rounded to float32 once), from the defined cells only. */
function referenceEnlarge(coarse: Float32Array, channels: number, grid: WorkingGrid, width: number, height: number, defined?: Uint8Array): Float32Array {
  const out = new Float32Array(width * height * channels);
  const across = between(width, grid.factor, grid.width);
  const down = between(height, grid.factor, grid.height);
  const weight = (cell: number) => (defined ? defined[cell]! : 1);
  for (let y = 0; y < height; y++) {
    const top = down.before[y]! * grid.width, bottom = down.after[y]! * grid.width, ty = down.share[y]!;
    for (let x = 0; x < width; x++) {
      const a = across.before[x]!, b = across.after[x]!, tx = across.share[x]!;
      const column = (cell: number, k: number) => (1 - ty) * weight(top + cell) * coarse[(top + cell) * channels + k]! + ty * weight(bottom + cell) * coarse[(bottom + cell) * channels + k]!;
      const columnWeight = (cell: number) => (1 - ty) * weight(top + cell) + ty * weight(bottom + cell);
      let wa = 1 - tx, wb = tx;
      if (defined) {
        const total = wa * columnWeight(a) + wb * columnWeight(b);
        if (total < 1e-6) continue;
        [wa, wb] = [wa / total, wb / total];
      }
      for (let k = 0; k < channels; k++) out[(y * width + x) * channels + k] = wa * column(a, k) + wb * column(b, k);
    }
  }
  return out;
}

/** Values spread over about -20..235 from a fixed seed, not round numbers. */
function noise(length: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length }, () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648) * 255 - 20);
}

describe("the working grid's resampling (WebAssembly)", () => {
  const shapes = [[231, 258], [7, 5], [1, 1], [100, 37], [262, 289]] as const;
  const grids = [{}, { cells: 160 }, { smallestFactor: 2 }, { cells: 3 }];

  it('averages cells to exactly what adding pixel by pixel in float32 gives, for any number of channels', () => {
    for (const [width, height] of shapes) {
      for (const options of grids) {
        const grid = workingGrid(width, height, options);
        for (const channels of [1, 3, 4]) {
          const values = noise(width * height * channels, width + channels);
          expect(Array.from(shrinkValues(values, channels, width, height, grid)), `${width}x${height} ${JSON.stringify(options)} ${channels}`).toEqual(
            Array.from(referenceShrink(values, channels, width, height, grid)),
          );
        }
      }
    }
  });

  it('enlarges to exactly what the interpolation in float64 gives, with and without a mask of defined cells', () => {
    for (const [width, height] of shapes) {
      for (const options of grids) {
        const grid = workingGrid(width, height, options);
        for (const channels of [1, 3]) {
          const coarse = noise(grid.width * grid.height * channels, height + channels);
          const defined = Uint8Array.from(noise(grid.width * grid.height, width), (v) => (v < 150 ? 1 : 0));
          for (const mask of [undefined, defined]) {
            expect(Array.from(enlargeValues(coarse, channels, grid, width, height, mask)), `${width}x${height} ${JSON.stringify(options)} ${channels} ${mask ? 'masked' : ''}`).toEqual(
              Array.from(referenceEnlarge(coarse, channels, grid, width, height, mask)),
            );
          }
        }
      }
    }
  });

  it('lays a change back onto the face exactly as adding its enlargement in float32 does', () => {
    const [width, height] = [231, 258];
    const grid = workingGrid(width, height);
    const face = noise(width * height * 3, 7);
    const drawn = noise(grid.width * grid.height * 3, 8);
    const toned = drawn.map((v, i) => v + (i % 7) - 3.3);
    const covered = Uint8Array.from(noise(grid.width * grid.height, 9), (v) => (v < 180 ? 1 : 0));
    const change = referenceEnlarge(toned.map((v, i) => v - drawn[i]!), 3, grid, width, height, covered);
    const expected = face.map((v, i) => v + change[i]!);
    layBack(face, { toned, drawn, covered }, grid, width, height);
    expect(Array.from(face)).toEqual(Array.from(expected));
  });
});

describe('working grid', () => {
  it('keeps a box up to 100 px across its short side at full resolution', () => {
    expect(workingGrid(100, 400)).toEqual({ factor: 1, width: 100, height: 400 });
    expect(workingGrid(90, 120).factor).toBe(1);
  });

  it('coarsens a larger box to at most 100 cells across its short side', () => {
    expect(workingGrid(230, 258)).toEqual({ factor: 3, width: 77, height: 86 });
    const big = workingGrid(450, 600);
    expect(big.factor).toBe(5);
    expect(Math.min(big.width, big.height)).toBeLessThanOrEqual(100);
  });

  it('takes as many cells across as asked, and cells of at least the smallest factor', () => {
    expect(workingGrid(230, 258, { cells: 160 })).toEqual({ factor: 2, width: 115, height: 129 });
    expect(workingGrid(90, 120, { smallestFactor: 2 })).toEqual({ factor: 2, width: 45, height: 60 });
  });

  it("averages each cell's pixels, the part cells at the right and bottom edge included", () => {
    const grid = { factor: 2, width: 2, height: 2 };
    // 3 x 3 pixels: value = 10 x + y.
    const cells = shrinkValues(boxOf(3, 3, (x, y) => 10 * x + y), 1, 3, 3, grid);
    expect(Array.from(cells)).toEqual([5.5, 20.5, 7, 22]);
  });

  it('sets a cell of a mask only when every pixel in it is set', () => {
    const grid = { factor: 2, width: 2, height: 1 };
    const mask = Uint8Array.from([1, 1, 1, 0, 1, 1, 1, 1]);
    expect(Array.from(shrinkMask(mask, 4, 2, grid))).toEqual([1, 0]);
  });

  it("moves points to the cells' coordinates, the middle of a cell's pixels to the cell", () => {
    const grid = { factor: 3, width: 4, height: 4 };
    // Pixels 3-5 make up cell 1, pixels 6-8 cell 2.
    expect(Array.from(toGrid(Float32Array.from([4, 7]), grid))).toEqual([1, 2]);
    expect(Array.from(toGrid(Float32Array.from([3, 5]), grid)).map((v) => +v.toFixed(4))).toEqual([0.6667, 1.3333]);
  });

  it('interpolates a linear ramp back exactly between the cells', () => {
    const [width, height] = [40, 30];
    const coarse = { factor: 2, width: 20, height: 15 };
    const ramp = (x: number, y: number) => 3 * x - 2 * y + 7;
    const enlarged = enlargeValues(shrinkValues(boxOf(width, height, ramp), 1, width, height, coarse), 1, coarse, width, height);
    // Pixels whose position lies between cell centres (not in the outermost pixel of each side, where it is held).
    for (let y = 1; y < height - 1; y++) for (let x = 1; x < width - 1; x++) expect(enlarged[y * width + x]).toBeCloseTo(ramp(x, y), 4);
  });

  it('reads only the cells it is told are defined', () => {
    const grid = { factor: 2, width: 3, height: 1 };
    const cells = Float32Array.from([10, 1000, 10]);
    const enlarged = enlargeValues(cells, 1, grid, 6, 2, Uint8Array.from([1, 0, 1]));
    expect(Array.from(enlarged)).toEqual(Array(12).fill(10));
  });

  it("lays a change made on the grid over the full-resolution face without blurring the face's detail", () => {
    const [width, height] = [8, 6];
    const grid = { factor: 2, width: 4, height: 3 };
    // Detail finer than a cell (a checkerboard), on every channel.
    const face = new Float32Array(width * height * 3);
    for (let p = 0; p < width * height; p++) for (let k = 0; k < 3; k++) face[p * 3 + k] = 100 + ((p % width) + Math.floor(p / width)) % 2 * 40 + k;
    const before = Float32Array.from(face);
    const drawn = shrinkValues(face, 3, width, height, grid);
    // The smooth steps lighten every cell by 12 levels.
    const toned = drawn.map((v) => v + 12);
    layBack(face, { toned, drawn, covered: new Uint8Array(12).fill(1) }, grid, width, height);
    face.forEach((v, i) => expect(v).toBeCloseTo(before[i]! + 12, 4));
  });
});
