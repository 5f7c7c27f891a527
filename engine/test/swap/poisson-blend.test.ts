import { describe, expect, it } from 'vitest';
import { poissonBlend } from '../../src/swap/poisson-blend';
import { solveOnRegion } from '../../src/swap/region-poisson';

interface Box {
  width: number;
  height: number;
}

/**
 * A face-like region: an ellipse with a hole where the mouth would be, a notch cut into one side
 * and a small island apart from it; nothing on the box's edge.
 */
function faceRegion({ width, height }: Box): Uint8Array {
  const region = new Uint8Array(width * height);
  const inside = (x: number, y: number, cx: number, cy: number, rx: number, ry: number) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 < 1;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const face = inside(x, y, 0.5 * width, 0.45 * height, 0.42 * width, 0.4 * height);
      const mouth = inside(x, y, 0.5 * width, 0.65 * height, 0.15 * width, 0.04 * height + 1);
      const notch = x > 0.75 * width && Math.abs(y - 0.3 * height) < 0.04 * height + 1;
      const island = inside(x, y, 0.5 * width, 0.93 * height, 0.1 * width, 0.03 * height + 1);
      if ((face && !mouth && !notch) || island) region[y * width + x] = 1;
    }
  }
  return region;
}

/** Three fields that are harmonic for the 5-point Laplacian, one per channel, within ±25 on the box. */
function harmonic({ width, height }: Box, x: number, y: number): [number, number, number] {
  const scale = 2 / Math.max(width, height);
  const [u, v] = [scale * (x - width / 2), scale * (y - height / 2)];
  return [10 + 12 * u - 9 * v, 25 * (u * u - v * v), 20 * u * v];
}

/** `count` deterministic pseudo-random values between `low` and `high`. */
function random(count: number, low: number, high: number): Float32Array {
  const out = new Float32Array(count);
  let seed = 7;
  for (let i = 0; i < count; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out[i] = low + (seed / 2147483648) * (high - low);
  }
  return out;
}

/** A texture for the guide (the blend must not care what it is). */
function texture(box: Box): Float32Array {
  return random(box.width * box.height * 3, 60, 200);
}

/**
 * The correction that border values `fixed` (held on the pixels outside `region`) extend to
 * inside it, solved in double precision by over-relaxed sweeps until nothing moves by 1e-11.
 */
function convergedCorrection(fixed: Float32Array, region: Uint8Array, { width, height }: Box): Float64Array {
  const c = Float64Array.from(fixed);
  for (let p = 0; p < region.length; p++) if (region[p]) c.fill(0, p * 3, p * 3 + 3);
  const row = width * 3;
  const omega = 2 / (1 + Math.sin(Math.PI / Math.max(width, height)));
  for (let change = Infinity; change > 1e-11; ) {
    change = 0;
    for (let p = 0; p < region.length; p++) {
      if (!region[p]) continue;
      for (let i = p * 3; i < p * 3 + 3; i++) {
        const step = omega * ((c[i - 3]! + c[i + 3]! + c[i - row]! + c[i + row]!) / 4 - c[i]!);
        c[i]! += step;
        change = Math.max(change, Math.abs(step));
      }
    }
  }
  return c;
}

/** The region's border: pixels outside it with a 4-neighbour inside. */
function borderOf(region: Uint8Array, { width, height }: Box): number[] {
  const border: number[] = [];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const p = y * width + x;
      if (!region[p] && (region[p - 1] || region[p + 1] || region[p - width] || region[p + width])) border.push(p);
    }
  }
  return border;
}

/** The largest difference, over the region's pixels and channels, between `after - before` and `expected`. */
function worstMiss(before: Float32Array, after: Float32Array, region: Uint8Array, expected: (p: number, k: number) => number): number {
  let worst = 0;
  for (let p = 0; p < region.length; p++) {
    if (!region[p]) continue;
    for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(after[p * 3 + k]! - before[p * 3 + k]! - expected(p, k)));
  }
  return worst;
}

describe('poissonBlend', () => {
  for (const box of [
    { width: 60, height: 72 },
    { width: 330, height: 400 },
  ]) {
    it(`gives the face the harmonic correction its border asks for, on a ${box.width} x ${box.height} box`, () => {
      const region = faceRegion(box);
      const guide = texture(box);
      const target = Float32Array.from(guide);
      for (let p = 0; p < region.length; p++) {
        const field = harmonic(box, p % box.width, Math.floor(p / box.width));
        for (let k = 0; k < 3; k++) target[p * 3 + k]! += field[k]!;
      }
      const blended = Float32Array.from(guide);

      poissonBlend(blended, target, region, new Uint8Array(region.length).fill(1), box.width, box.height);

      // Inside, the result is the guide plus the field the border differences extend to.
      expect(worstMiss(guide, blended, region, (p, k) => harmonic(box, p % box.width, Math.floor(p / box.width))[k]!)).toBeLessThan(0.001);
      // Outside, nothing moves.
      let moved = 0;
      for (let i = 0; i < guide.length; i++) if (!region[Math.floor(i / 3)] && blended[i] !== guide[i]) moved++;
      expect(moved).toBe(0);
    });
  }

  it('matches a fully converged solve to within 0.02 levels when every border pixel pulls a different way', () => {
    const box = { width: 64, height: 76 };
    const region = faceRegion(box);
    const guide = new Float32Array(box.width * box.height * 3);
    const target = random(guide.length, -30, 30);
    const blended = Float32Array.from(guide);

    poissonBlend(blended, target, region, new Uint8Array(region.length).fill(1), box.width, box.height);

    const converged = convergedCorrection(target, region, box);
    expect(worstMiss(guide, blended, region, (p, k) => converged[p * 3 + k]!)).toBeLessThan(0.02);
  });

  it('does not let border pixels that are not skin pull, so a face whose only differing border is not skin stays as it was', () => {
    const box = { width: 90, height: 100 };
    const region = faceRegion(box);
    const guide = texture(box);
    const target = Float32Array.from(guide);
    const skin = new Uint8Array(region.length).fill(1);
    for (const p of borderOf(region, box)) {
      if (p % box.width >= box.width / 2) continue;
      skin[p] = 0;
      for (let k = 0; k < 3; k++) target[p * 3 + k]! += 20;
    }
    const blended = Float32Array.from(guide);

    poissonBlend(blended, target, region, skin, box.width, box.height);

    expect(blended).toEqual(guide);
  });

  it('lets every border pixel pull when none is skin, each by at most 30 levels', () => {
    const box = { width: 90, height: 100 };
    const region = faceRegion(box);
    const guide = texture(box);
    const target = Float32Array.from(guide);
    for (const p of borderOf(region, box)) for (let k = 0; k < 3; k++) target[p * 3 + k]! += [12, 100, -100][k]!;
    const blended = Float32Array.from(guide);

    poissonBlend(blended, target, region, new Uint8Array(region.length), box.width, box.height);

    expect(worstMiss(guide, blended, region, (_, k) => [12, 30, -30][k]!)).toBeLessThan(0.01);
  });

  it('fades the correction out over `reach` pixels from the edge: the edge takes the border\'s pull, the middle keeps the guide', () => {
    const box = { width: 90, height: 100 };
    const region = faceRegion(box);
    const guide = texture(box);
    const target = Float32Array.from(guide);
    for (const p of borderOf(region, box)) for (let k = 0; k < 3; k++) target[p * 3 + k]! += 12;
    const blended = Float32Array.from(guide);

    poissonBlend(blended, target, region, new Uint8Array(region.length).fill(1), box.width, box.height, 10);

    const added = (p: number) => blended[p * 3]! - guide[p * 3]!;
    const edge = Array.from(region.keys()).filter((p) => region[p] && [p - 1, p + 1, p - box.width, p + box.width].some((q) => !region[q]));
    for (const p of edge) expect(added(p)).toBeGreaterThan(11);
    // Around (45, 30) every pixel lies over 15 px from the outline, the notch and the mouth.
    for (let y = 26; y <= 34; y++) for (let x = 41; x <= 49; x++) expect(added(y * box.width + x)).toBe(0);
  });
});

describe('solveOnRegion', () => {
  it('recovers a field from its 5-point Laplacian on a region with a hole, a notch and an island', () => {
    const box = { width: 150, height: 170 };
    const region = faceRegion(box);
    const field = new Float32Array(box.width * box.height * 3);
    for (let p = 0; p < region.length; p++) {
      if (!region[p]) continue;
      const [x, y] = [p % box.width, Math.floor(p / box.width)];
      for (let k = 0; k < 3; k++) field[p * 3 + k] = 30 * Math.sin(x / (5 + k)) * Math.cos(y / 8) + 0.01 * (x - box.width / 2) ** 2;
    }
    const laplacian = new Float32Array(field.length);
    const row = box.width * 3;
    for (let p = 0; p < region.length; p++) {
      if (!region[p]) continue;
      for (let i = p * 3; i < p * 3 + 3; i++) laplacian[i] = 4 * field[i]! - field[i - 3]! - field[i + 3]! - field[i - row]! - field[i + row]!;
    }

    const solved = solveOnRegion(laplacian, region, box.width, box.height);

    let worst = 0;
    for (let i = 0; i < field.length; i++) worst = Math.max(worst, Math.abs(solved[i]! - field[i]!));
    expect(worst).toBeLessThan(0.005);
  });
});
