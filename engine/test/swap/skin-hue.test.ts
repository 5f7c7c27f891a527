import { describe, expect, it } from 'vitest';
import { hueDistance, skinHue } from '../../src/swap/skin-hue';

/** A Lab buffer of the given colours, and the indices of all its pixels. */
function pixels(colours: number[][]): { lab: Float32Array; all: Int32Array } {
  return { lab: Float32Array.from(colours.flat()), all: Int32Array.from(colours.keys()) };
}

const atHue = (lightness: number, chroma: number, degrees: number) => [lightness, chroma * Math.cos((degrees * Math.PI) / 180), chroma * Math.sin((degrees * Math.PI) / 180)];

describe('skin hue', () => {
  it('has no hue for a grey face (a black-and-white photo)', () => {
    const { lab, all } = pixels(Array.from({ length: 100 }, (_, i) => [40 + (i % 30), (i % 5) - 2, (i % 7) - 3]));

    expect(skinHue(lab, all, 50)).toBeNull();
  });

  it('judges a lighter pixel of another hue far from the skin, and a darker one, or a grey one, not at all', () => {
    const skin = Array.from({ length: 100 }, (_, i) => atHue(50 + (i % 20), 25 + (i % 10), 55 + (i % 5) - 2));
    const { lab, all } = pixels([...skin, atHue(75, 28, 80), atHue(45, 28, 80), atHue(75, 6, 80)]);
    const hue = skinHue(lab, all.subarray(0, 100), 60)!;

    expect(hueDistance(lab, 100, hue)).toBeGreaterThan(2);
    expect(hueDistance(lab, 101, hue)).toBe(0);
    expect(hueDistance(lab, 102, hue)).toBe(0);
    expect(hueDistance(lab, 10, hue)).toBeLessThan(1);
  });
});
