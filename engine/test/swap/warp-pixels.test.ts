import { describe, expect, it } from 'vitest';
import type { FaceTexture } from '../../src/swap/prepared-source';
import { barycentricWeights, triangleMap } from '../../src/swap/rasterise-mesh';
import { warpPixels, type WarpedPixels, type WarpPixelsInput } from '../../src/swap/warp-pixels';

/** A repeatable pseudo-random sequence in 0..1 (mulberry32). */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A grid of `side` x `side` points, jittered, and its two triangles per cell. */
function jitteredGrid(random: () => number, side: number, spacing: number, jitter: number, offset: number): { mesh: Float32Array; triangles: Uint16Array } {
  const mesh = new Float32Array(side * side * 2);
  for (let i = 0; i < side * side; i++) {
    mesh[i * 2] = offset + (i % side) * spacing + (random() - 0.5) * jitter;
    mesh[i * 2 + 1] = offset + Math.floor(i / side) * spacing + (random() - 0.5) * jitter;
  }
  const triangles: number[] = [];
  for (let y = 0; y < side - 1; y++) {
    for (let x = 0; x < side - 1; x++) {
      const at = y * side + x;
      triangles.push(at, at + side, at + 1, at + 1, at + side, at + side + 1);
    }
  }
  return { mesh, triangles: Uint16Array.from(triangles) };
}

/** A photo of noise whose likeness is mostly full skin, with stretches of hair (0) and partial skin between. */
function noisyTexture(random: () => number, mesh: Float32Array, width: number, height: number): FaceTexture {
  const rgb = Uint8Array.from({ length: width * height * 3 }, () => Math.floor(random() * 256));
  const likeness = Uint8Array.from({ length: width * height }, () => {
    const r = random();
    return r < 0.6 ? 255 : r < 0.75 ? 0 : Math.floor(random() * 256);
  });
  return { rgb, width, height, mesh, depth: new Float32Array(mesh.length / 2), turn: 0, likeness };
}

/**
 * Inputs as the warp builds them: a target grid in a box, and two source views whose grids reach
 * past their photo's edges (so samples are clamped, and some fall beyond the edge).
 */
function warpInput(seed: number, side: number, spacing: number): WarpPixelsInput {
  const random = randomFrom(seed);
  const target = jitteredGrid(random, side, spacing, spacing * 0.6, 2);
  const width = Math.ceil(2 + (side - 1) * spacing + spacing), height = width;
  const sourceSide = Math.ceil((side - 1) * spacing * 0.7);
  const view = () => noisyTexture(random, jitteredGrid(random, side, spacing * 0.8, spacing * 0.9, -spacing * 0.3).mesh, sourceSide, sourceSide);
  const weights = barycentricWeights(target.mesh, target.triangles);
  const count = target.triangles.length / 3;
  const points = side * side;
  return {
    map: triangleMap(target.mesh, target.triangles, width, height, weights),
    weights,
    triangles: target.triangles,
    width,
    height,
    bySharpness: Float32Array.from({ length: count }, () => (random() < 0.5 ? 1 : random())),
    ownSharpness: Float32Array.from({ length: points }, () => (random() < 0.5 ? 1 : random())),
    otherSharpness: Float32Array.from({ length: points }, () => (random() < 0.5 ? 1 : random())),
    primary: view(),
    secondary: view(),
  };
}

/** The loop in plain JavaScript, float64 throughout, as the kernel promises to compute it. */
function reference(input: WarpPixelsInput): Omit<WarpedPixels, 'sharpness'> & { sharpness: Float32Array; stretched: boolean } {
  const { map, weights, triangles, width, bySharpness, ownSharpness, otherSharpness, primary, secondary } = input;
  const pixels = map.length;
  const out = {
    rgb: new Float32Array(pixels * 3), covered: new Uint8Array(pixels), confidence: new Float32Array(pixels), sharpness: new Float32Array(pixels), stretched: false,
    other: { rgb: new Float32Array(pixels * 3), mixes: new Float32Array(pixels), both: new Uint8Array(pixels), mixed: new Int32Array(pixels) },
  };
  const interpolated = (values: Float32Array, a: number, b: number, c: number, u: number, v: number) =>
    Math.min(1, Math.max(0, values[a]! + u * (values[b]! - values[a]!) + v * (values[c]! - values[a]!)));
  const sample = (texture: FaceTexture, a: number, b: number, c: number, u: number, v: number, rgb: Float32Array, at: number) => {
    const m = texture.mesh;
    const sx = m[a * 2]! + u * (m[b * 2]! - m[a * 2]!) + v * (m[c * 2]! - m[a * 2]!);
    const sy = m[a * 2 + 1]! + u * (m[b * 2 + 1]! - m[a * 2 + 1]!) + v * (m[c * 2 + 1]! - m[a * 2 + 1]!);
    const x = Math.min(Math.max(sx, 0), texture.width - 1.001), y = Math.min(Math.max(sy, 0), texture.height - 1.001);
    const fx = x - Math.floor(x), fy = y - Math.floor(y);
    const i00 = (Math.floor(y) * texture.width + Math.floor(x)) * 3, i01 = i00 + texture.width * 3;
    for (let k = 0; k < 3; k++) {
      const top = texture.rgb[i00 + k]! + (texture.rgb[i00 + 3 + k]! - texture.rgb[i00 + k]!) * fx;
      const bottom = texture.rgb[i01 + k]! + (texture.rgb[i01 + 3 + k]! - texture.rgb[i01 + k]!) * fx;
      rgb[at + k] = top + (bottom - top) * fy;
    }
    if (sx < -0.5 || sy < -0.5 || sx > texture.width - 0.5 || sy > texture.height - 0.5) return 0;
    const nx = Math.min(Math.max(Math.round(sx), 0), texture.width - 1), ny = Math.min(Math.max(Math.round(sy), 0), texture.height - 1);
    return texture.likeness[ny * texture.width + nx]! / 255;
  };
  let mixedCount = 0;
  for (let pixel = 0; pixel < pixels; pixel++) {
    const t = map[pixel]!;
    if (t < 0) continue;
    const x = pixel % width, y = (pixel - x) / width;
    const u = (x - weights[t * 6]!) * weights[t * 6 + 2]! + (y - weights[t * 6 + 1]!) * weights[t * 6 + 3]!;
    const v = (x - weights[t * 6]!) * weights[t * 6 + 4]! + (y - weights[t * 6 + 1]!) * weights[t * 6 + 5]!;
    const a = triangles[t * 3]!, b = triangles[t * 3 + 1]!, c = triangles[t * 3 + 2]!;
    const own = sample(primary, a, b, c, u, v, out.rgb, pixel * 3);
    const sharp = bySharpness[t]!;
    const ownSharp = interpolated(ownSharpness, a, b, c, u, v), otherSharp = interpolated(otherSharpness, a, b, c, u, v);
    const skin = sample(secondary, a, b, c, u, v, out.other.rgb, pixel * 3);
    if (own >= 0.9 && skin >= 0.9) out.other.both[pixel] = 1;
    let mix = 0, seen = 0;
    if (otherSharp > ownSharp) {
      seen = skin;
      mix = seen * Math.max(otherSharp - ownSharp, Math.min(1, 2 * (1 - own)));
    } else if (own < 1) {
      seen = skin * otherSharp;
      mix = Math.min(1, 2 * (1 - own)) * seen;
    }
    if (mix > 0) {
      out.other.mixes[pixel] = mix;
      out.other.mixed[mixedCount++] = pixel;
    }
    out.confidence[pixel] = (1 - mix) * own + mix * seen;
    out.covered[pixel] = 1;
    out.sharpness[pixel] = sharp + mix * (otherSharp - sharp);
    if (out.sharpness[pixel]! < 1) out.stretched = true;
  }
  return { ...out, other: { ...out.other, mixed: out.other.mixed.subarray(0, mixedCount) } };
}

/** How many entries of two arrays differ, bit for bit. */
function differing(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  expect(actual.length).toBe(expected.length);
  let count = 0;
  for (let i = 0; i < expected.length; i++) if (!Object.is(actual[i], expected[i])) count++;
  return count;
}

describe('the warp\'s per-pixel loop (WebAssembly)', () => {
  it('gives float for float what the loop in float64 gives, clamped samples, partial skin and mixing included', () => {
    for (const [seed, side, spacing] of [[1, 8, 14], [2, 5, 31], [3, 12, 6], [4, 3, 2.5]] as const) {
      const input = warpInput(seed, side, spacing);
      const expected = reference(input);
      const actual = warpPixels(input);
      const name = `seed ${seed}`;
      expect(expected.other.mixed.length, `${name} mixes some pixels`).toBeGreaterThan(0);
      expect(differing(actual.rgb, expected.rgb), name).toBe(0);
      expect(differing(actual.covered, expected.covered), name).toBe(0);
      expect(differing(actual.confidence, expected.confidence), name).toBe(0);
      expect(actual.sharpness, name).not.toBeNull();
      expect(differing(actual.sharpness!, expected.sharpness), name).toBe(0);
      expect(differing(actual.other.rgb, expected.other.rgb), name).toBe(0);
      expect(differing(actual.other.mixes, expected.other.mixes), name).toBe(0);
      expect(differing(actual.other.both, expected.other.both), name).toBe(0);
      expect(differing(actual.other.mixed, expected.other.mixed), name).toBe(0);
    }
  });

  it('takes the likeness from the nearest pixel as Math.round picks it, halves upwards', () => {
    // A source at exactly half the target's scale: every other target pixel samples at x.5, y.5.
    const random = randomFrom(8);
    const target = jitteredGrid(random, 6, 8, 0, 2);
    const source = target.mesh.map((value) => value / 2);
    const weights = barycentricWeights(target.mesh, target.triangles);
    const view = () => noisyTexture(random, source, 24, 24);
    const input: WarpPixelsInput = {
      map: triangleMap(target.mesh, target.triangles, 48, 48, weights), weights, triangles: target.triangles, width: 48, height: 48,
      bySharpness: new Float32Array(target.triangles.length / 3).fill(1), ownSharpness: new Float32Array(36).fill(1), otherSharpness: new Float32Array(36).fill(0.5),
      primary: view(), secondary: view(),
    };
    const expected = reference(input);
    const actual = warpPixels(input);
    expect(differing(actual.confidence, expected.confidence)).toBe(0);
    expect(differing(actual.other.both, expected.other.both)).toBe(0);
  });

  it('reports no sharpness where every covered pixel is fully sharp, and leaves uncovered pixels empty', () => {
    const input = warpInput(5, 6, 12);
    input.bySharpness.fill(1);
    input.ownSharpness.fill(1);
    input.otherSharpness.fill(1);
    input.primary.likeness.fill(255);
    const warped = warpPixels(input);
    expect(warped.sharpness).toBeNull();
    const outside = input.map.findIndex((t) => t < 0);
    expect(outside).toBeGreaterThanOrEqual(0);
    expect([warped.covered[outside], warped.confidence[outside], ...warped.rgb.subarray(outside * 3, outside * 3 + 3)]).toEqual([0, 0, 0, 0, 0]);
  });

  it('warps a box too large for the memory it keeps as it warps a small one, and small ones after it', () => {
    // 1100 x 1100 pixels: about 50 MB of outputs, beyond the 16 MB kept.
    const large = warpInput(6, 12, 100);
    expect(large.width * large.height).toBeGreaterThan(1_000_000);
    const before = reference(warpInput(7, 5, 9));
    expect(differing(warpPixels(large).rgb, reference(large).rgb)).toBe(0);
    const after = warpPixels(warpInput(7, 5, 9));
    expect(differing(after.rgb, before.rgb)).toBe(0);
    expect(differing(after.other.mixed, before.other.mixed)).toBe(0);
  });
});
