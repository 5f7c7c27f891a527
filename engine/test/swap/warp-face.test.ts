import { describe, expect, it } from 'vitest';
import type { FaceTexture } from '../../src/swap/prepared-source';
import { warpFace } from '../../src/swap/warp-face';

/** A strip of `columns` unit squares (two triangles each), with the squares' widths given. */
function strip(widths: number[], height: number): { mesh: Float32Array; triangles: Uint16Array } {
  const xs = [0];
  for (const w of widths) xs.push(xs[xs.length - 1]! + w);
  const mesh = new Float32Array(xs.length * 4);
  xs.forEach((x, i) => {
    mesh.set([x, 0], i * 2);
    mesh.set([x, height], (xs.length + i) * 2);
  });
  const triangles: number[] = [];
  for (let i = 0; i < widths.length; i++) {
    const [topLeft, topRight, bottomLeft, bottomRight] = [i, i + 1, xs.length + i, xs.length + i + 1];
    triangles.push(topLeft, bottomLeft, topRight, topRight, bottomLeft, bottomRight);
  }
  return { mesh, triangles: Uint16Array.from(triangles) };
}

function texture(mesh: Float32Array, width: number, height: number, grey = 128, likeness = 255): FaceTexture {
  return { rgb: new Uint8Array(width * height * 3).fill(grey), width, height, mesh, depth: new Float32Array(mesh.length / 2), turn: 0, likeness: new Uint8Array(width * height).fill(likeness) };
}

describe('warping the source onto the target', () => {
  it('marks pixels drawn from a source sliver stretched over a wide triangle as not sharp', () => {
    // Target: five squares 20 px wide. Source: the same, but the middle one is a 2 px sliver (stretched 10x across).
    const target = strip([20, 20, 20, 20, 20], 20);
    const source = strip([20, 20, 2, 20, 20], 20);
    const box = { x: 0, y: 0, width: 101, height: 21 };
    const warped = warpFace({ primary: texture(source.mesh, 83, 21), secondary: texture(source.mesh, 83, 21) }, target.mesh, box, target.triangles);

    const at = (x: number, y: number) => warped.sharpness![y * box.width + x]!;
    expect(at(50, 10)).toBe(0);
    expect(at(10, 10)).toBe(1);
    expect(at(90, 10)).toBe(1);
  });

  it('keeps fully sharp a source triangle magnified a few times more than the rest of the face', () => {
    // A source at half the target's size, its middle square squeezed to a quarter of its width (2.6x the face's scale).
    const target = strip([20, 20, 20], 20);
    const source = strip([10, 5, 10], 10);
    const box = { x: 0, y: 0, width: 61, height: 21 };
    const warped = warpFace({ primary: texture(source.mesh, 26, 11), secondary: texture(source.mesh, 26, 11) }, target.mesh, box, target.triangles);

    expect(warped.sharpness).toBeNull();
  });

  it('lets the other view stand in for what is not skin only where it is not stretched', () => {
    // The primary view is all hair (not skin); the other view is skin, and shows the middle square as a 2 px sliver.
    const target = strip([20, 20, 20, 20, 20], 20);
    const even = strip([20, 20, 20, 20, 20], 20);
    const squeezed = strip([20, 20, 2, 20, 20], 20);
    const box = { x: 0, y: 0, width: 101, height: 21 };
    const hair = texture(even.mesh, 101, 21, 40, 0);
    const warped = warpFace({ primary: hair, secondary: texture(squeezed.mesh, 83, 21, 200) }, target.mesh, box, target.triangles);

    const at = (x: number, y: number) => y * box.width + x;
    expect(warped.confidence[at(10, 10)]).toBe(1);
    expect(warped.rgb[at(10, 10) * 3]).toBeCloseTo(200);
    expect(warped.confidence[at(50, 10)]).toBe(0);
    expect(warped.rgb[at(50, 10) * 3]).toBeCloseTo(40);
  });

  it('fades the other view out across a triangle beside one it shows stretched, not at their shared edge', () => {
    // As above: the primary view is all hair; the other view shows the middle square as a 2 px sliver.
    const target = strip([20, 20, 20, 20, 20], 20);
    const even = strip([20, 20, 20, 20, 20], 20);
    const squeezed = strip([20, 20, 2, 20, 20], 20);
    const box = { x: 0, y: 0, width: 101, height: 21 };
    const warped = warpFace({ primary: texture(even.mesh, 101, 21, 40, 0), secondary: texture(squeezed.mesh, 83, 21, 200) }, target.mesh, box, target.triangles);

    // What the other view draws fades from its far corners (sharp) to the sliver's edge, and is trusted as far as it is sharp.
    const drawn = (x: number) => (warped.rgb[(10 * box.width + x) * 3]! - 40) / (200 - 40);
    const confidence = (x: number) => warped.confidence[10 * box.width + x]!;
    expect(drawn(22)).toBeCloseTo(0.9, 1);
    expect(drawn(30)).toBeCloseTo(0.5, 1);
    expect(drawn(38)).toBeCloseTo(0.1, 1);
    expect(confidence(30)).toBeCloseTo(0.25, 1);
  });

  /**
   * Both views are skin; the primary shows the middle of five 20 px squares `middleWidth` px wide,
   * the other view shows it whole, with a dark line down its middle (grey 60 on 128). Returns the
   * warp's colour and sharpness at `x` on the middle row.
   */
  function squeezedMiddle(middleWidth: number): (x: number) => { grey: number; sharpness: number } {
    const target = strip([20, 20, 20, 20, 20], 20);
    const squeezed = strip([20, 20, middleWidth, 20, 20], 20);
    const even = strip([20, 20, 20, 20, 20], 20);
    const box = { x: 0, y: 0, width: 101, height: 21 };
    const other = texture(even.mesh, 101, 21);
    for (let y = 0; y < 21; y++) other.rgb.fill(60, (y * 101 + 50) * 3, (y * 101 + 51) * 3);
    const warped = warpFace({ primary: texture(squeezed.mesh, 81 + middleWidth, 21), secondary: other }, target.mesh, box, target.triangles);
    return (x) => ({ grey: warped.rgb[(10 * box.width + x) * 3]!, sharpness: warped.sharpness?.[10 * box.width + x] ?? 1 });
  }

  it('draws a triangle the primary view shows as a sliver from the other view where that one shows it whole', () => {
    const at = squeezedMiddle(2);

    expect(at(50).grey).toBeLessThan(75);
    expect(at(50).sharpness).toBe(1);
    expect(at(10).grey).toBeCloseTo(128);
  });

  it("fades the other view in across a triangle beside the primary view's sliver, not at their shared edge", () => {
    // Both views are skin; the primary shows the middle square as a 2 px sliver, the other view
    // shows every square whole, with dark lines down the square beside it (grey 60 on 128).
    const target = strip([20, 20, 20, 20, 20], 20);
    const squeezed = strip([20, 20, 2, 20, 20], 20);
    const even = strip([20, 20, 20, 20, 20], 20);
    const box = { x: 0, y: 0, width: 101, height: 21 };
    const other = texture(even.mesh, 101, 21);
    for (const line of [24, 30, 36]) for (let y = 0; y < 21; y++) other.rgb.fill(60, (y * 101 + line) * 3, (y * 101 + line + 1) * 3);
    const warped = warpFace({ primary: texture(squeezed.mesh, 83, 21), secondary: other }, target.mesh, box, target.triangles);

    // How far the other view's line shows: 0 where the primary's own pixel is drawn, 1 where the other view's is.
    const shown = (x: number) => (128 - warped.rgb[(10 * box.width + x) * 3]!) / (128 - 60);
    // Stepping at the edge, the square was all the primary's and the sliver all the other view's.
    expect(shown(24)).toBeGreaterThan(0.1);
    expect(shown(24)).toBeLessThan(0.3);
    expect(shown(30)).toBeGreaterThan(shown(24) + 0.15);
    expect(shown(36)).toBeGreaterThan(shown(30) + 0.15);
  });

  it('takes a triangle the primary view shows slightly stretched from the other view only as far as that one is sharper', () => {
    // 5 px wide, the primary's middle square is about two thirds sharp.
    const at = squeezedMiddle(5);

    // Taken over fully, the line would be drawn at about 70.
    expect(at(50).grey).toBeGreaterThan(100);
    expect(at(50).sharpness).toBeGreaterThan(0.6);
    expect(at(50).sharpness).toBeLessThan(0.9);
  });

  it("brings what the other view draws in for hair to the primary's light", () => {
    // The same face in both views, lit brighter in the other one (170 against 120); a strand of
    // hair 6 px wide runs down the primary's middle square.
    const target = strip([20, 20, 20, 20, 20], 60);
    const even = strip([20, 20, 20, 20, 20], 60);
    const box = { x: 0, y: 0, width: 101, height: 61 };
    const primary = texture(even.mesh, 101, 61, 120);
    for (let y = 0; y < 61; y++) {
      primary.rgb.fill(30, (y * 101 + 47) * 3, (y * 101 + 53) * 3);
      primary.likeness.fill(0, y * 101 + 47, y * 101 + 53);
    }
    const warped = warpFace({ primary, secondary: texture(even.mesh, 101, 61, 170) }, target.mesh, box, target.triangles);

    const at = (x: number, y: number) => y * box.width + x;
    expect(warped.confidence[at(50, 30)]).toBe(1);
    expect(Math.abs(warped.rgb[at(50, 30) * 3]! - 120)).toBeLessThan(3);
    expect(warped.rgb[at(10, 30) * 3]).toBeCloseTo(120);
  });
});
