import { describe, expect, it } from 'vitest';
import { labToRgb, rgbToLab } from '../../src/swap/lab-colour';
import { allPixels } from '../../src/swap/mask-indices';

/** CIE L*a*b* (D65) of an sRGB colour, straight from the definitions. */
function referenceLab([r, g, b]: number[]): number[] {
  const linear = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const [R, G, B] = [linear(r!), linear(g!), linear(b!)];
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const fx = f((0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047);
  const fy = f(0.2126729 * R + 0.7151522 * G + 0.072175 * B);
  const fz = f((0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** Colours across the whole cube, on and between integer levels. */
function sampleColours(): number[][] {
  const out: number[][] = [];
  for (let r = 0; r <= 255; r += 17) for (let g = 0; g <= 255; g += 15) for (let b = 0; b <= 255; b += 51) out.push([r, g, b], [r * 0.99 + 0.3, g * 0.98 + 0.7, b * 0.97 + 0.5]);
  return out;
}

describe('Lab colour', () => {
  it('converts sRGB to CIE Lab as the definitions do, to within 0.01', () => {
    const colours = sampleColours();
    const pixels = Float32Array.from(colours.flat());
    rgbToLab(pixels, allPixels(colours.length));
    let worst = 0;
    colours.forEach((colour, n) => referenceLab(colour).forEach((v, k) => (worst = Math.max(worst, Math.abs(v - pixels[n * 3 + k]!)))));
    expect(worst).toBeLessThan(0.01);
  });

  it('converts Lab back to the sRGB levels it came from, to within 0.02', () => {
    const colours = sampleColours();
    const pixels = Float32Array.from(colours.flat());
    const all = allPixels(colours.length);
    rgbToLab(pixels, all);
    labToRgb(pixels, all);
    let worst = 0;
    colours.flat().forEach((v, i) => (worst = Math.max(worst, Math.abs(v - pixels[i]!))));
    expect(worst).toBeLessThan(0.02);
  });
});
