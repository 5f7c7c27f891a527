import { describe, expect, it } from 'vitest';
import { chamfer } from '../../src/swap/chamfer';

/** The two-pass 3-4 chamfer transform in plain JavaScript, as the kernel promises to compute it. */
function reference(inside: Uint8Array, width: number, height: number): Float32Array {
  const distance = Float32Array.from(inside, (i) => (i ? 1e6 : 0));
  const at = (x: number, y: number) => (x >= 0 && x < width && y >= 0 && y < height ? distance[y * width + x]! : Infinity);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (inside[y * width + x]) distance[y * width + x] = Math.min(distance[y * width + x]!, at(x - 1, y) + 3, at(x, y - 1) + 3, at(x - 1, y - 1) + 4, at(x + 1, y - 1) + 4);
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      if (inside[y * width + x]) distance[y * width + x] = Math.min(distance[y * width + x]!, at(x + 1, y) + 3, at(x, y + 1) + 3, at(x + 1, y + 1) + 4, at(x - 1, y + 1) + 4);
    }
  }
  return distance;
}

/** A mask of a few overlapping discs, with a hole punched in each: inside borders, holes and the box's edges alike. */
function discs(width: number, height: number, seed: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (let n = 0; n < 4; n++) {
    const cx = ((seed * 37 + n * 53) % 100) / 100 * width, cy = ((seed * 61 + n * 29) % 100) / 100 * height;
    const r = (0.2 + ((seed + n) % 5) / 10) * Math.min(width, height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const d = Math.hypot(x - cx, y - cy);
        if (d < r && d > r / 4) mask[y * width + x] = 1;
      }
    }
  }
  return mask;
}

describe('the chamfer distance transform (WebAssembly)', () => {
  it('gives what the two passes give in plain JavaScript, down to masks a pixel wide', () => {
    for (const [width, height, seed] of [[120, 90, 1], [33, 71, 2], [1, 40, 3], [40, 1, 4], [2, 2, 5], [257, 3, 6]] as const) {
      const mask = discs(width, height, seed);
      expect(Array.from(chamfer(mask, width, height)), `${width}x${height}`).toEqual(Array.from(reference(mask, width, height)));
    }
  });

  it('counts 3 a step beside and 4 a step diagonally from the nearest pixel outside', () => {
    const mask = new Uint8Array(7 * 7).fill(1);
    mask[3 * 7 + 3] = 0;
    const distance = chamfer(mask, 7, 7);
    expect(distance[3 * 7 + 3]).toBe(0);
    expect(distance[3 * 7 + 5]).toBe(6);
    expect(distance[5 * 7 + 5]).toBe(8);
    expect(distance[4 * 7 + 6]).toBe(3 + 3 + 4);
  });

  it('leaves 1e6 where no pixel outside is reached, and 0 on an empty mask', () => {
    expect(Array.from(chamfer(new Uint8Array(12).fill(1), 4, 3))).toEqual(new Array(12).fill(1e6));
    expect(Array.from(chamfer(new Uint8Array(12), 4, 3))).toEqual(new Array(12).fill(0));
  });

  it('transforms a mask too large for the memory it keeps as it does a small one, and small ones after it', () => {
    // 2000 x 2000: 4 MB of mask and 16 MB of distances, beyond the 16 MB kept.
    const side = 2000;
    const large = new Uint8Array(side * side).fill(1);
    large[1000 * side + 1000] = 0;
    const small = new Uint8Array(21 * 21).fill(1);
    small[10 * 21 + 10] = 0;
    const far = chamfer(large, side, side);
    const near = chamfer(small, 21, 21);
    for (let dy = -10; dy <= 10; dy++) {
      for (let dx = -10; dx <= 10; dx++) expect(far[(1000 + dy) * side + 1000 + dx]).toBe(near[(10 + dy) * 21 + 10 + dx]);
    }
    expect(Array.from(chamfer(small, 21, 21))).toEqual(Array.from(near));
  });
});
