import { describe, expect, it } from 'vitest';
import { gaussianInPlace } from '../../src/swap/box-blur';
import { blurMap, maskedBlur } from '../../src/swap/masked-blur';
import { between } from '../../src/swap/working-grid';

const W = 240;
const H = 200;

/** Three channels: a constant, a ramp across and a ramp down; the mask leaves out a disc (an eye, a lip) and the right quarter. */
function scene(): { values: Float32Array; mask: Uint8Array } {
  const values = new Float32Array(W * H * 3);
  const mask = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = y * W + x;
      values.set([50, 0.5 * x, 0.25 * y], p * 3);
      const inDisc = (x - 80) ** 2 + (y - 100) ** 2 < 20 ** 2;
      mask[p] = inDisc || x >= 180 ? 0 : 1;
    }
  }
  return { values, mask };
}

/**
 * The wide masked low-pass in plain JavaScript, as its WebAssembly promises it: the masked pixels
 * added into float32 cells a quarter of the radius across one by one, the cells made means and
 * box-blurred, then interpolated in float64 at each pixel asked for, and the channels divided by
 * the blurred mask.
 */
function referenceWideBlur(values: Float32Array, mask: Uint8Array, width: number, height: number, radius: number, at: Int32Array): { mean: Float32Array; weight: Float32Array } {
  const factor = Math.floor(radius / 4);
  const [cw, ch] = [Math.ceil(width / factor), Math.ceil(height / factor)];
  const cells = new Float32Array(cw * ch * 4);
  for (let p = 0; p < mask.length; p++) {
    if (!mask[p]) continue;
    const cell = (Math.floor(Math.floor(p / width) / factor) * cw + Math.floor((p % width) / factor)) * 4;
    for (let k = 0; k < 3; k++) cells[cell + k]! += values[p * 3 + k]!;
    cells[cell + 3]!++;
  }
  for (let cell = 0; cell < cw * ch; cell++) {
    const [cx, cy] = [cell % cw, Math.floor(cell / cw)];
    const count = Math.min(factor, height - cy * factor) * Math.min(factor, width - cx * factor);
    for (let k = 0; k < 4; k++) cells[cell * 4 + k]! /= count;
  }
  gaussianInPlace(cells, 4, cw, ch, Math.round(radius / factor));
  const [across, down] = [between(width, factor, cw), between(height, factor, ch)];
  const mean = new Float32Array(at.length * 3), weight = new Float32Array(at.length);
  at.forEach((p, n) => {
    const [x, y] = [p % width, Math.floor(p / width)];
    const cell = (row: Int32Array, column: Int32Array, k: number) => cells[(row[y]! * cw + column[x]!) * 4 + k]!;
    const low = [0, 1, 2, 3].map((k) => {
      const top = cell(down.before, across.before, k) + across.share[x]! * (cell(down.before, across.after, k) - cell(down.before, across.before, k));
      const bottom = cell(down.after, across.before, k) + across.share[x]! * (cell(down.after, across.after, k) - cell(down.after, across.before, k));
      return Math.fround(top + down.share[y]! * (bottom - top));
    });
    weight[n] = low[3]!;
    if (low[3]! >= 1e-6) for (let k = 0; k < 3; k++) mean[n * 3 + k] = low[k]! / low[3]!;
  });
  return { mean, weight };
}

/** The wide one-channel low-pass in plain JavaScript: each row of a cell summed in float64 and added into its float32 sum, then as above, the map over the mask. */
function referenceWideMap(map: Float32Array, width: number, height: number, radius: number, mask?: Uint8Array): Float32Array {
  const factor = Math.floor(radius / 4);
  const [cw, ch] = [Math.ceil(width / factor), Math.ceil(height / factor)];
  const cells = new Float32Array(cw * ch * 2);
  for (let y = 0; y < height; y++) {
    for (let cx = 0; cx < cw; cx++) {
      let [sum, n] = [0, 0];
      for (let x = cx * factor; x < Math.min(width, (cx + 1) * factor); x++) {
        if (mask && !mask[y * width + x]) continue;
        sum += map[y * width + x]!;
        n++;
      }
      const cell = (Math.floor(y / factor) * cw + cx) * 2;
      cells[cell]! += sum;
      cells[cell + 1]! += n;
    }
  }
  for (let cell = 0; cell < cw * ch; cell++) {
    const count = Math.min(factor, height - Math.floor(cell / cw) * factor) * Math.min(factor, width - (cell % cw) * factor);
    for (let k = 0; k < 2; k++) cells[cell * 2 + k]! /= count;
  }
  gaussianInPlace(cells, 2, cw, ch, Math.round(radius / factor));
  const [across, down] = [between(width, factor, cw), between(height, factor, ch)];
  return Float32Array.from({ length: width * height }, (_, p) => {
    const [x, y] = [p % width, Math.floor(p / width)];
    const cell = (row: Int32Array, column: Int32Array, k: number) => cells[(row[y]! * cw + column[x]!) * 2 + k]!;
    const [value, weight] = [0, 1].map((k) => {
      const top = cell(down.before, across.before, k) + across.share[x]! * (cell(down.before, across.after, k) - cell(down.before, across.before, k));
      const bottom = cell(down.after, across.before, k) + across.share[x]! * (cell(down.after, across.after, k) - cell(down.after, across.before, k));
      return top + down.share[y]! * (bottom - top);
    }) as [number, number];
    return weight > 1e-6 ? value / weight : 0;
  });
}

/** The masked low-pass at full resolution in plain JavaScript: masked values and the mask as four channels, the box blur, the values over the blurred mask. */
function referenceFineBlur(values: Float32Array, mask: Uint8Array, width: number, height: number, radius: number, at: Int32Array): { mean: Float32Array; weight: Float32Array } {
  const stack = new Float32Array(width * height * 4);
  mask.forEach((m, p) => {
    if (m) stack.set([values[p * 3]!, values[p * 3 + 1]!, values[p * 3 + 2]!, 1], p * 4);
  });
  gaussianInPlace(stack, 4, width, height, radius);
  const mean = new Float32Array(at.length * 3), weight = new Float32Array(at.length);
  at.forEach((p, n) => {
    weight[n] = stack[p * 4 + 3]!;
    if (weight[n]! >= 1e-6) for (let k = 0; k < 3; k++) mean[n * 3 + k] = stack[p * 4 + k]! / weight[n]!;
  });
  return { mean, weight };
}

/** The one-channel low-pass at full resolution in plain JavaScript: the weighted map and the weights blurred, one over the other. */
function referenceFineMap(map: Float32Array, width: number, height: number, radius: number, mask?: Uint8Array): Float32Array {
  const stack = new Float32Array(width * height * 2);
  map.forEach((v, p) => stack.set([(mask ? mask[p]! : 1) * v, mask ? mask[p]! : 1], p * 2));
  gaussianInPlace(stack, 2, width, height, radius);
  return Float32Array.from({ length: width * height }, (_, p) => (stack[p * 2 + 1]! > 1e-6 ? stack[p * 2]! / stack[p * 2 + 1]! : 0));
}

describe('the masked low-pass at full resolution (WebAssembly)', () => {
  it('blurs a one-channel map to exactly what plain JavaScript gives, with a mask and without', () => {
    let state = 17;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const [width, height, radius] of [[231, 258, 3], [40, 33, 1], [9, 9, 5], [1, 50, 2]] as const) {
      const map = Float32Array.from({ length: width * height }, () => next() * 2 - 0.5);
      const mask = Uint8Array.from({ length: width * height }, () => (next() < 0.5 ? 1 : 0));
      for (const m of [undefined, mask]) {
        expect(Array.from(blurMap(map, width, height, radius, m)), `${width}x${height} radius ${radius}`).toEqual(Array.from(referenceFineMap(map, width, height, radius, m)));
      }
    }
  });

  it('gives exactly what packing, blurring and dividing in plain JavaScript give, on listed pixels and on all', () => {
    let state = 13;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const [width, height, radius] of [[231, 258, 3], [40, 33, 1], [9, 9, 5], [1, 50, 2]] as const) {
      const values = Float32Array.from({ length: width * height * 3 }, () => next() * 300 - 20);
      const mask = Uint8Array.from({ length: width * height }, () => (next() < 0.5 ? 1 : 0));
      const listed = Int32Array.from({ length: Math.floor((width * height) / 2) }, () => Math.floor(next() * width * height));
      const every = Int32Array.from({ length: width * height }, (_, p) => p);
      for (const at of [listed, undefined]) {
        const got = maskedBlur(values, mask, width, height, radius, at);
        const expected = referenceFineBlur(values, mask, width, height, radius, at ?? every);
        expect(Array.from(got.mean), `${width}x${height} radius ${radius}`).toEqual(Array.from(expected.mean));
        expect(Array.from(got.weight)).toEqual(Array.from(expected.weight));
      }
    }
  });
});

describe('the wide masked low-pass (WebAssembly)', () => {
  it('blurs a one-channel map to exactly what plain JavaScript gives, with a mask and without', () => {
    let state = 11;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const [width, height, radius] of [[231, 258, 12], [40, 33, 8], [9, 9, 17], [300, 120, 25]] as const) {
      const map = Float32Array.from({ length: width * height }, next);
      const mask = Uint8Array.from({ length: width * height }, () => (next() < 0.6 ? 1 : 0));
      for (const m of [undefined, mask]) {
        expect(Array.from(blurMap(map, width, height, radius, m)), `${width}x${height} radius ${radius}`).toEqual(Array.from(referenceWideMap(map, width, height, radius, m)));
      }
    }
  });

  it('gives exactly what gathering, blurring and interpolating in plain JavaScript give, on listed pixels and on all', () => {
    let state = 5;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const [width, height, radius] of [[231, 258, 12], [40, 33, 8], [9, 9, 17], [300, 120, 25]] as const) {
      const values = Float32Array.from({ length: width * height * 3 }, () => next() * 255);
      const mask = Uint8Array.from({ length: width * height }, () => (next() < 0.6 ? 1 : 0));
      const listed = Int32Array.from({ length: Math.floor((width * height) / 3) }, () => Math.floor(next() * width * height));
      const every = Int32Array.from({ length: width * height }, (_, p) => p);
      for (const at of [listed, undefined]) {
        const got = maskedBlur(values, mask, width, height, radius, at);
        const expected = referenceWideBlur(values, mask, width, height, radius, at ?? every);
        expect(Array.from(got.mean), `${width}x${height} radius ${radius}`).toEqual(Array.from(expected.mean));
        expect(Array.from(got.weight)).toEqual(Array.from(expected.weight));
      }
    }
  });
});

describe('masked low-pass', () => {
  for (const radius of [6, 40]) {
    it(`keeps a constant exactly and a ramp within half a level inside the mask, radius ${radius}`, () => {
      const { values, mask } = scene();
      const { mean, weight } = maskedBlur(values, mask, W, H, radius);
      let constant = 0;
      let ramp = 0;
      // Far enough from the image's and the mask's edges that the kernel is whole and symmetric.
      const margin = 3 * radius;
      for (let y = margin; y < H - margin; y++) {
        for (let x = margin; x < 180 - margin; x++) {
          const p = y * W + x;
          if ((x - 80) ** 2 + (y - 100) ** 2 < (20 + margin) ** 2) continue;
          constant = Math.max(constant, Math.abs(mean[p * 3]! - 50));
          ramp = Math.max(ramp, Math.abs(mean[p * 3 + 1]! - 0.5 * x), Math.abs(mean[p * 3 + 2]! - 0.25 * y));
          expect(weight[p]!).toBeGreaterThan(0.99);
        }
      }
      expect(constant).toBeLessThan(1e-3);
      expect(ramp).toBeLessThan(0.5);
    });
  }

  it('fills the left-out pixels with the masked neighbourhood, not with their own values', () => {
    const { values, mask } = scene();
    for (let p = 0; p < mask.length; p++) if (!mask[p]) values[p * 3] = 250;
    const { mean, weight } = maskedBlur(values, mask, W, H, 40);
    const centre = 100 * W + 80;
    expect(mean[centre * 3]!).toBeCloseTo(50, 3);
    expect(weight[centre]!).toBeGreaterThan(0.5);
    expect(weight[centre]!).toBeLessThan(1);
  });

  for (const radius of [6, 40]) {
    it(`gives the listed pixels, in their order, exactly what the whole image's low-pass has there, radius ${radius}`, () => {
      const { values, mask } = scene();
      const whole = maskedBlur(values, mask, W, H, radius);
      const at = Int32Array.from([W * H - 1, 0, 100 * W + 80, 37 * W + 190, 150 * W + 20]);
      const listed = maskedBlur(values, mask, W, H, radius, at);
      expect(listed.weight).toHaveLength(at.length);
      at.forEach((p, n) => {
        expect(listed.weight[n]).toBe(whole.weight[p]);
        for (let k = 0; k < 3; k++) expect(listed.mean[n * 3 + k]).toBe(whole.mean[p * 3 + k]);
      });
    });
  }

  // Radius 4 is worked out at full resolution, 9 and 20 on cells of 2 and 5 pixels.
  for (const radius of [4, 9, 20]) {
    it(`blurs a one-channel map from its masked pixels only, keeping a ramp within half a level, radius ${radius}`, () => {
      const { mask } = scene();
      const map = new Float32Array(W * H);
      for (let p = 0; p < map.length; p++) map[p] = mask[p] ? 0.5 * (p % W) : 1000;
      const blurred = blurMap(map, W, H, radius, mask);
      const margin = 3 * radius;
      let ramp = 0;
      for (let y = margin; y < H - margin; y++) {
        for (let x = margin; x < 180 - margin; x++) {
          if ((x - 80) ** 2 + (y - 100) ** 2 < (20 + margin) ** 2) continue;
          ramp = Math.max(ramp, Math.abs(blurred[y * W + x]! - 0.5 * x));
        }
      }
      expect(ramp).toBeLessThan(0.5);
      // The disc left out of the mask takes its neighbourhood's values (or 0 beyond their reach), never its own 1000.
      expect(blurred[100 * W + 80]!).toBeLessThan(41);
    });
  }

  it('gives 0 where no masked pixel is near', () => {
    const mask = new Uint8Array(W * H);
    for (let p = 0; p < mask.length; p++) mask[p] = p % W < 20 ? 1 : 0;
    for (const radius of [4, 9]) expect(blurMap(new Float32Array(W * H).fill(3), W, H, radius, mask)[100 * W + 200]).toBe(0);
  });

  it('gives the same low-passes after larger and smaller ones have run (the buffers it reuses carry nothing over)', () => {
    const { values, mask } = scene();
    const at = Int32Array.from({ length: 500 }, (_, n) => n * 37);
    const map = Float32Array.from(mask);
    const first = { fine: maskedBlur(values, mask, W, H, 6, at), coarse: maskedBlur(values, mask, W, H, 40, at), map: blurMap(map, W, H, 4, mask) };
    // A larger image, then a small one, in between.
    const big = new Float32Array(4 * W * H * 3).fill(200);
    maskedBlur(big, new Uint8Array(4 * W * H).fill(1), 2 * W, 2 * H, 6);
    blurMap(new Float32Array(16 * 16).fill(9), 16, 16, 3);
    expect(maskedBlur(values, mask, W, H, 6, at)).toEqual(first.fine);
    expect(maskedBlur(values, mask, W, H, 40, at)).toEqual(first.coarse);
    expect(blurMap(map, W, H, 4, mask)).toEqual(first.map);
  });

  it('blurs down the columns as along the rows: the low-pass of a transposed image is the transposed low-pass', () => {
    // Sizes down to fewer pixels than the window: the window's entering and leaving stretches meet.
    for (const [width, height, radius] of [[61, 47, 4], [9, 3, 5], [2, 7, 3]] as const) {
      const values = Float32Array.from({ length: width * height * 3 }, (_, i) => (i * 7919) % 251);
      const mask = Uint8Array.from({ length: width * height }, (_, p) => (p % 5 === 0 ? 0 : 1));
      const transpose = <T extends Float32Array | Uint8Array>(a: T, w: number, h: number, channels: number): T => {
        const out = a.slice() as T;
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let k = 0; k < channels; k++) out[(x * h + y) * channels + k] = a[(y * w + x) * channels + k]!;
        return out;
      };
      const direct = maskedBlur(values, mask, width, height, radius);
      const across = maskedBlur(transpose(values, width, height, 3), transpose(mask, width, height, 1), height, width, radius);
      // The passes alternate, rows first: transposed, the columns come first, so float rounding differs.
      const largestGap = (a: Float32Array, b: Float32Array) => a.reduce((gap, v, i) => Math.max(gap, Math.abs(v - b[i]!)), 0);
      expect(largestGap(transpose(across.mean, height, width, 3), direct.mean), `${width}x${height}`).toBeLessThan(1e-3);
      expect(largestGap(transpose(across.weight, height, width, 1), direct.weight), `${width}x${height}`).toBeLessThan(1e-6);
    }
  });
});
