import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { edgeBlur, matchSharpness } from '../../src/swap/match-sharpness';

const SIZE = 120;

/** Dark discs on a light ground (edges in every direction), blurred by `sigma` (none at 0), as box RGB floats. */
async function discs(sigma: number): Promise<Float32Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}"><rect width="100%" height="100%" fill="#d8b8a0"/>
    <circle cx="35" cy="40" r="18" fill="#302018"/><circle cx="85" cy="45" r="14" fill="#402820"/><circle cx="60" cy="88" r="20" fill="#283040"/></svg>`;
  const image = sharp(Buffer.from(svg)).removeAlpha();
  const { data } = await (sigma > 0 ? image.blur(sigma) : image).raw().toBuffer({ resolveWithObject: true });
  return Float32Array.from(data);
}

const everywhere = new Uint8Array(SIZE * SIZE).fill(1);

/**
 * The edge blur in plain JavaScript, as its WebAssembly promises it: float32 lightness, gradients
 * of the features on every other row, the steepest tenth by a histogram of quarter levels, and the
 * median of range / (gradient sqrt(2 pi)) over those with a 7 x 7 range of at least 30.
 */
function referenceEdgeBlur(rgb: Float32Array, features: Uint8Array, width: number, height: number): number {
  const light = Float32Array.from({ length: width * height }, (_, p) => 0.299 * rgb[p * 3]! + 0.587 * rgb[p * 3 + 1]! + 0.114 * rgb[p * 3 + 2]!);
  const gradients = new Float32Array(width * height);
  const histogram = new Int32Array(512);
  const rows = Array.from({ length: Math.ceil((height - 6) / 2) }, (_, i) => 3 + 2 * i).filter((y) => y < height - 3);
  let count = 0;
  for (const y of rows) {
    for (let x = 3; x < width - 3; x++) {
      const p = y * width + x;
      const [gx, gy] = [light[p + 1]! - light[p - 1]!, light[p + width]! - light[p - width]!];
      const gradient = Math.sqrt(gx * gx + gy * gy) / 2;
      if (!features[p] || !(gradient >= 2)) continue;
      gradients[p] = gradient;
      histogram[Math.min(511, Math.floor(gradient * 4))]!++;
      count++;
    }
  }
  if (count < 20) return NaN;
  const steepest = Math.max(20, Math.round(count * 0.1));
  let step = 511;
  for (let above = histogram[step]!; above < steepest; above += histogram[step]!) step--;
  const blurs: number[] = [];
  for (const y of rows) {
    for (let x = 3; x < width - 3; x++) {
      const gradient = gradients[y * width + x]!;
      if (gradient < step / 4) continue;
      const window = Array.from({ length: 49 }, (_, i) => light[(y + Math.floor(i / 7) - 3) * width + x + (i % 7) - 3]!);
      const range = Math.max(...window) - Math.min(...window);
      if (range >= 30) blurs.push(range / (gradient * Math.sqrt(2 * Math.PI)));
    }
  }
  if (blurs.length < 10) return NaN;
  return blurs.sort((a, b) => a - b)[blurs.length >> 1]!;
}

describe('the edge blur (WebAssembly)', () => {
  it('gives exactly what the measure in plain JavaScript gives, over all pixels and over features only', async () => {
    const features = Uint8Array.from({ length: SIZE * SIZE }, (_, p) => ((p % SIZE) + Math.floor(p / SIZE)) % 5 < 3 ? 1 : 0);
    for (const sigma of [0, 1, 2.5]) {
      const rgb = await discs(sigma);
      for (const mask of [everywhere, features]) expect(edgeBlur(rgb, mask, SIZE, SIZE), `sigma ${sigma}`).toBe(referenceEdgeBlur(rgb, mask, SIZE, SIZE));
    }
  });
});

describe('matching a soft photo', () => {
  it('measures the blur of edges: about the sigma up to 1.5 px, growing beyond', async () => {
    const measured = await Promise.all([1, 1.5, 2, 3].map(async (sigma) => edgeBlur(await discs(sigma), everywhere, SIZE, SIZE)));
    expect(measured[0]).toBeCloseTo(1, 0);
    expect(Math.abs(measured[1]! - 1.5)).toBeLessThan(0.25);
    expect(measured[2]).toBeGreaterThan(measured[1]!);
    expect(measured[3]).toBeGreaterThan(measured[2]!);
  });

  it('gives no measure where the features hold too few edges', async () => {
    expect(edgeBlur(await discs(1), new Uint8Array(SIZE * SIZE), SIZE, SIZE)).toBeNaN();
  });

  it('softens a sharp face towards a blurred target, only on the pixels drawn', async () => {
    const [sharpFace, target] = await Promise.all([discs(0.6), discs(2.5)]);
    const drawn = new Uint8Array(SIZE * SIZE).fill(1);
    drawn.fill(0, 0, SIZE * 10);
    const face = Float32Array.from(sharpFace);
    const wanted = edgeBlur(target, everywhere, SIZE, SIZE);
    expect(edgeBlur(face, everywhere, SIZE, SIZE)).toBeLessThan(0.5 * wanted);
    expect(matchSharpness(face, drawn, target, everywhere, SIZE, SIZE)).toBeGreaterThan(0);
    // Short of the whole way: a target may be up to 1 px² softer (`BLUR_ALLOWANCE`).
    expect(edgeBlur(face, everywhere, SIZE, SIZE)).toBeGreaterThan(0.7 * wanted);
    expect(face.subarray(0, SIZE * 10 * 3)).toEqual(sharpFace.subarray(0, SIZE * 10 * 3));
  });

  it('leaves a face alone in a photo as sharp as it, or sharper', async () => {
    const [face, target] = await Promise.all([discs(1.5), discs(1.2)]);
    const before = Float32Array.from(face);
    expect(matchSharpness(face, everywhere, target, everywhere, SIZE, SIZE)).toBe(0);
    expect(face).toEqual(before);
  });
});
