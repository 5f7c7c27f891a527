import { describe, expect, it } from 'vitest';
import { anchorCentre, CENTRE_LIMIT } from '../../src/swap/anchor-centre';
import { toLab } from '../../src/swap/lab-colour';

const [WIDTH, HEIGHT] = [120, 140];

/** A box filled with one RGB colour. */
function filled(rgb: readonly [number, number, number]): Float32Array {
  const box = new Float32Array(WIDTH * HEIGHT * 3);
  for (let p = 0; p < WIDTH * HEIGHT; p++) box.set(rgb, p * 3);
  return box;
}

/** The face region: an ellipse inside the box. */
function ellipse(): Uint8Array {
  const region = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      if (((x - WIDTH / 2) / (0.45 * WIDTH)) ** 2 + ((y - HEIGHT / 2) / (0.45 * HEIGHT)) ** 2 < 1) region[y * WIDTH + x] = 1;
    }
  }
  return region;
}

/** CIE76 difference between two pixels' Lab colours. */
function deltaAt(a: Float32Array, b: Float32Array, p: number): number {
  const [la, lb] = [toLab(a.subarray(p * 3, p * 3 + 3)), toLab(b.subarray(p * 3, p * 3 + 3))];
  return Math.hypot(la[0]! - lb[0]!, la[1]! - lb[1]!, la[2]! - lb[2]!);
}

const CENTRE = Math.round(0.6 * HEIGHT) * WIDTH + WIDTH / 2;

describe('anchorCentre', () => {
  it("brings a face centre far darker than the target's to within the limit (ΔE 3) of it, leaving its edge as blended", () => {
    const original = filled([200, 160, 140]);
    const face = filled([150, 115, 100]);
    const region = ellipse();
    const edge = Math.round(HEIGHT / 2) * WIDTH + Math.round(0.06 * WIDTH);
    expect(region[edge]).toBe(1);
    expect(deltaAt(face, original, CENTRE)).toBeGreaterThan(15);

    anchorCentre(face, { rgb: original, lab: toLab(original) }, region, WIDTH, HEIGHT);

    expect(CENTRE_LIMIT).toBe(3);
    expect(deltaAt(face, original, CENTRE)).toBeLessThan(CENTRE_LIMIT + 0.5);
    expect(deltaAt(face, original, CENTRE)).toBeGreaterThan(CENTRE_LIMIT - 0.5);
    // The shift fades in from the face's edge: its first pixel inside keeps the blended colour.
    expect(Math.abs(face[edge * 3]! - 150)).toBeLessThan(1);
  });

  it('leaves a face whose centre is within the limit of the target exactly as it was', () => {
    const original = filled([200, 160, 140]);
    const face = filled([196, 157, 138]);
    const before = Float32Array.from(face);
    expect(deltaAt(face, original, CENTRE)).toBeLessThan(CENTRE_LIMIT);

    anchorCentre(face, { rgb: original, lab: toLab(original) }, ellipse(), WIDTH, HEIGHT);

    expect(face).toEqual(before);
  });

  it('keeps the face detail: neighbouring pixels keep their difference', () => {
    const original = filled([200, 160, 140]);
    const face = filled([150, 115, 100]);
    face[CENTRE * 3] = 170;
    const region = ellipse();

    anchorCentre(face, { rgb: original, lab: toLab(original) }, region, WIDTH, HEIGHT);

    expect(face[CENTRE * 3]! - face[(CENTRE + 1) * 3]!).toBeCloseTo(20, 3);
  });

  it("judges the centre on the face's own box when the region reaches beyond it", () => {
    // The region's top half is the band beyond the face's outline, left as the target was; the
    // face below is darker all over.
    const faceBox = { x: 0, y: HEIGHT / 2, width: WIDTH, height: HEIGHT / 2 };
    const original = filled([200, 160, 140]);
    const face = filled([150, 115, 100]);
    for (let p = 0; p < faceBox.y * WIDTH; p++) face.set([200, 160, 140], p * 3);
    const middle = Math.round(faceBox.y + 0.6 * faceBox.height) * WIDTH + WIDTH / 2;

    anchorCentre(face, { rgb: original, lab: toLab(original) }, ellipse(), WIDTH, HEIGHT, faceBox);

    expect(deltaAt(face, original, middle)).toBeLessThan(CENTRE_LIMIT + 0.5);
    expect(deltaAt(face, original, middle)).toBeGreaterThan(CENTRE_LIMIT - 0.5);
  });
});
