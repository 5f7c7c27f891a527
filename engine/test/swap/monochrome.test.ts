import { describe, expect, it } from 'vitest';
import { toLab } from '../../src/swap/lab-colour';
import { monochromeHue, takeHue } from '../../src/swap/monochrome';

const PIXELS = 1000;

/** A Lab box of grey pixels of every lightness with colour noise of up to `noise` units, and `coloured` pixels of a strong blue. */
function greyBox(noise: number, coloured: number): Float32Array {
  const rgb = new Float32Array(PIXELS * 3);
  for (let p = 0; p < PIXELS; p++) {
    const level = (p * 37) % 256;
    rgb.set([level, level, level], p * 3);
  }
  const lab = toLab(rgb);
  for (let p = 0; p < PIXELS; p++) {
    lab[p * 3 + 1]! += noise * Math.sin(p);
    lab[p * 3 + 2]! += noise * Math.cos(p * 1.7);
  }
  for (let p = 0; p < coloured; p++) lab.set([50, 10, -40], p * 13 * 3);
  return lab;
}

describe('photos in one colour', () => {
  it("gives the skin's hue for a grey box with a JPEG's colour noise", () => {
    expect(monochromeHue(greyBox(1.5, 0), [60, 0.2, -0.3])).toEqual([0.2, -0.3]);
  });

  it('lets a few coloured specks through, and tells a box with more colour from a black-and-white one', () => {
    expect(monochromeHue(greyBox(1, 5), [60, 0, 0])).not.toBeNull();
    expect(monochromeHue(greyBox(1, 20), [60, 0, 0])).toBeNull();
  });

  it('finds no one colour in a box coloured other than its skin', () => {
    expect(monochromeHue(greyBox(0, 0), [60, 15, 25])).toBeNull();
  });

  it('gives the covered pixels the hue and keeps their lightness, leaving the others', () => {
    const rgb = Float32Array.from([200, 60, 40, 30, 90, 220, 10, 200, 30]);
    const before = toLab(rgb);
    const covered = Uint8Array.from([1, 1, 0]);
    takeHue(rgb, covered, [0, 0]);
    const after = toLab(rgb);
    for (const p of [0, 1]) {
      expect(after[p * 3]!).toBeCloseTo(before[p * 3]!, 0);
      expect(Math.abs(rgb[p * 3]! - rgb[p * 3 + 1]!)).toBeLessThan(1);
      expect(Math.abs(rgb[p * 3 + 1]! - rgb[p * 3 + 2]!)).toBeLessThan(1);
    }
    expect(Array.from(rgb.subarray(6))).toEqual([10, 200, 30]);
  });
});
