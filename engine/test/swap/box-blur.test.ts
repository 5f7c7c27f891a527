import { describe, expect, it } from 'vitest';
import { gaussianInPlace } from '../../src/swap/box-blur';

/**
 * One box pass in plain float64, the order the kernel promises: along `count` lines of `length`
 * values `step` apart (lines `gap` apart), each output the window's running sum over its span,
 * the sum taken as entering + (ahead - behind) while the window is full.
 */
function boxPass(input: Float32Array, out: Float32Array, count: number, gap: number, length: number, step: number, radius: number): void {
  const span = 2 * radius + 1;
  for (let line = 0; line < count; line++) {
    const at = (i: number) => line * gap + i * step;
    let sum = 0;
    for (let i = 0; i < Math.min(radius + 1, length); i++) sum += input[at(i)]!;
    for (let i = 0; i < length; i++) {
      out[at(i)] = sum / span;
      const comes = i + radius + 1 < length, goes = i >= radius;
      if (comes && goes) sum += input[at(i + radius + 1)]! - input[at(i - radius)]!;
      else if (comes) sum += input[at(i + radius + 1)]!;
      else if (goes) sum -= input[at(i - radius)]!;
    }
  }
}

/** Three passes, rows then columns each time, every channel, in plain float64. */
function reference(image: Float32Array, channels: number, width: number, height: number, radius: number): Float32Array {
  const a = image.slice();
  const b = new Float32Array(a.length);
  for (let pass = 0; pass < 3; pass++) {
    for (let k = 0; k < channels; k++) boxPass(a.subarray(k), b.subarray(k), height, width * channels, width, channels, radius);
    for (let k = 0; k < channels; k++) boxPass(b.subarray(k), a.subarray(k), width, channels, height, width * channels, radius);
  }
  return a;
}

/** Values of very different sizes (1e-5 to 1e7) and zeros, so sums taken in another order round differently. */
const noise = (length: number) => Float32Array.from({ length }, (_, i) => (i % 3 === 0 ? 0 : Math.sin(i) * 10 ** ((i * 7919) % 13 - 5)));

describe('box blur (WebAssembly)', () => {
  it('gives float for float what running sums in float64 give, down to images smaller than the window', () => {
    for (const [width, height, channels, radius] of [[206, 238, 4, 1], [61, 47, 2, 4], [9, 3, 4, 5], [2, 7, 2, 3], [1, 1, 2, 2], [40, 30, 2, 7]] as const) {
      const image = noise(width * height * channels);
      const expected = reference(image, channels, width, height, radius);
      gaussianInPlace(image, channels, width, height, radius);
      const differing = image.filter((v, i) => v !== expected[i]).length;
      expect(differing, `${width}x${height}, ${channels} channels, radius ${radius}`).toBe(0);
    }
  });

  it('spreads a point as three boxes do: 1, 3, 6, 7, 6, 3, 1 over 27 each way at radius 1', () => {
    const image = new Float32Array(11 * 11 * 2);
    image[(5 * 11 + 5) * 2 + 1] = 27 * 27;
    gaussianInPlace(image, 2, 11, 11, 1);
    const weights = [0, 0, 1, 3, 6, 7, 6, 3, 1, 0, 0];
    for (let y = 0; y < 11; y++) {
      for (let x = 0; x < 11; x++) {
        expect(image[(y * 11 + x) * 2]).toBe(0);
        expect(image[(y * 11 + x) * 2 + 1]).toBeCloseTo(weights[x]! * weights[y]!, 3);
      }
    }
  });

  it('blurs an image too large for the memory it keeps as it blurs a small one, and small ones after it', () => {
    // 1500 x 1500 x 4 floats: 36 MB, twice that with the spare copy, beyond the 16 MB kept.
    const side = 1500;
    const large = new Float32Array(side * side * 4);
    const small = new Float32Array(21 * 21 * 4);
    large[(750 * side + 750) * 4 + 2] = 1000;
    small[(10 * 21 + 10) * 4 + 2] = 1000;
    gaussianInPlace(large, 4, side, side, 3);
    gaussianInPlace(small, 4, 21, 21, 3);
    for (let dy = -10; dy <= 10; dy++) {
      for (let dx = -10; dx <= 10; dx++) expect(large[((750 + dy) * side + 750 + dx) * 4 + 2]).toBe(small[((10 + dy) * 21 + 10 + dx) * 4 + 2]);
    }
  });
});
