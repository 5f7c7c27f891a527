import { allPixels } from './mask-indices';

/**
 * sRGB (0..255) <-> CIE L*a*b* (D65 white), in place on interleaved float triples. Lab separates
 * lightness from colour, so the statistics of each channel can be matched independently.
 */

const WHITE_X = 0.95047;
const WHITE_Z = 1.08883;
const EPSILON = 216 / 24389;
const KAPPA = 24389 / 27;

function toLinearExact(v: number): number {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

function fromLinearExact(c: number): number {
  const v = c <= 0.0031308 ? 12.92 * c : 1.055 * Math.pow(c, 1 / 2.4) - 0.055;
  return v * 255;
}

// Math.pow per channel was most of the colour step's time (a video frame converts tens of
// thousands of pixels). Tables with linear interpolation stay within 0.005 levels of the curves.
const TO_LINEAR = Float64Array.from({ length: 257 }, (_, v) => toLinearExact(Math.min(v, 255)));
const FROM_LINEAR_STEPS = 4096;
const FROM_LINEAR = Float64Array.from({ length: FROM_LINEAR_STEPS + 2 }, (_, i) => fromLinearExact(Math.min(i, FROM_LINEAR_STEPS) / FROM_LINEAR_STEPS));

/** sRGB 0..255 (integer or not; clamped to that range) to linear 0..1. */
function toLinear(v: number): number {
  const x = v <= 0 ? 0 : v >= 255 ? 255 : v;
  const i = x | 0;
  return TO_LINEAR[i]! + (x - i) * (TO_LINEAR[i + 1]! - TO_LINEAR[i]!);
}

/** Linear 0.. to sRGB 0..255; above 1 (out of gamut) by the exact curve. */
function fromLinear(c: number): number {
  if (c > 1) return fromLinearExact(c);
  const x = c * FROM_LINEAR_STEPS;
  const i = x | 0;
  return FROM_LINEAR[i]! + (x - i) * (FROM_LINEAR[i + 1]! - FROM_LINEAR[i]!);
}

/**
 * The cube root over 0..`CBRT_TOP` from a table and one Halley step (cubic convergence: within
 * 1e-13 of `Math.cbrt`, which took about a fifth of a video frame's colour step at three calls per pixel).
 */
const CBRT_STEPS = 4096;
const CBRT_TOP = 1.25;
const CBRT = Float64Array.from({ length: CBRT_STEPS + 2 }, (_, i) => Math.cbrt((i * CBRT_TOP) / CBRT_STEPS));
function cubeRoot(t: number): number {
  if (t > CBRT_TOP) return Math.cbrt(t);
  const x = t * (CBRT_STEPS / CBRT_TOP);
  const i = x | 0;
  const y = CBRT[i]! + (x - i) * (CBRT[i + 1]! - CBRT[i]!);
  const y3 = y * y * y;
  return (y * (y3 + 2 * t)) / (2 * y3 + t);
}

const f = (t: number) => (t > EPSILON ? cubeRoot(t) : (KAPPA * t + 16) / 116);
const fInverse = (t: number) => (t * t * t > EPSILON ? t * t * t : (116 * t - 16) / KAPPA);

/** A copy of an RGB buffer with every pixel converted to Lab. */
export function toLab(rgb: ArrayLike<number>): Float32Array {
  const lab = Float32Array.from(rgb);
  rgbToLab(lab, allPixels(lab.length / 3));
  return lab;
}

/** Converts the pixels `indices` of an RGB float buffer to Lab, in place. */
export function rgbToLab(pixels: Float32Array, indices: Int32Array): void {
  for (let n = 0; n < indices.length; n++) {
    const i = indices[n]! * 3;
    const r = toLinear(pixels[i]!), g = toLinear(pixels[i + 1]!), b = toLinear(pixels[i + 2]!);
    const fx = f((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / WHITE_X);
    const fy = f(0.2126729 * r + 0.7151522 * g + 0.072175 * b);
    const fz = f((0.0193339 * r + 0.119192 * g + 0.9503041 * b) / WHITE_Z);
    pixels[i] = 116 * fy - 16;
    pixels[i + 1] = 500 * (fx - fy);
    pixels[i + 2] = 200 * (fy - fz);
  }
}

/** Converts the pixels `indices` of a Lab float buffer back to RGB (0..255, unclamped), in place. */
export function labToRgb(pixels: Float32Array, indices: Int32Array): void {
  for (let n = 0; n < indices.length; n++) {
    const i = indices[n]! * 3;
    const fy = (pixels[i]! + 16) / 116;
    const x = WHITE_X * fInverse(fy + pixels[i + 1]! / 500);
    const y = fInverse(fy);
    const z = WHITE_Z * fInverse(fy - pixels[i + 2]! / 200);
    const r = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z;
    const g = -0.969266 * x + 1.8760108 * y + 0.041556 * z;
    const b = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z;
    pixels[i] = fromLinear(Math.max(0, r));
    pixels[i + 1] = fromLinear(Math.max(0, g));
    pixels[i + 2] = fromLinear(Math.max(0, b));
  }
}
