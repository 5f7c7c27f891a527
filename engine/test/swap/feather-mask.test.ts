import { describe, expect, it } from 'vitest';
import { featherMask } from '../../src/swap/feather-mask';

const SIZE = 100;

/** A face region filling the box but for a 4 px border, with a hole (a mouth) of [x0, y0, x1, y1). */
function regionWithHole([x0, y0, x1, y1]: [number, number, number, number]): Uint8Array {
  const inside = new Uint8Array(SIZE * SIZE);
  for (let y = 4; y < SIZE - 4; y++) inside.fill(1, y * SIZE + 4, y * SIZE + SIZE - 4);
  for (let y = y0; y < y1; y++) inside.fill(0, y * SIZE + x0, y * SIZE + x1);
  return inside;
}

describe('the feathered opacity of the new face', () => {
  const hole: [number, number, number, number] = [40, 60, 60, 64];
  const at = (alpha: Float32Array) => (x: number, y: number) => alpha[y * SIZE + x]!;

  it('rises over the outline width at the outline and at a hole alike when no hole width is given', () => {
    const alpha = at(featherMask(regionWithHole(hole), SIZE, SIZE, 8));
    // 5 px in from the outline (x = 8) and 5 px above the hole (y = 55): the same opacity.
    expect(alpha(8, 30)).toBeCloseTo(alpha(50, 55), 5);
    expect(alpha(8, 30)).toBeLessThan(1);
  });

  it("rises over the narrower hole width at the mouth's edge, and keeps the outline's width", () => {
    const wide = at(featherMask(regionWithHole(hole), SIZE, SIZE, 8));
    const alpha = at(featherMask(regionWithHole(hole), SIZE, SIZE, 8, 3));
    expect(alpha(50, 55)).toBe(1);
    expect(alpha(50, 58)).toBeGreaterThan(wide(50, 58));
    expect(alpha(50, 58)).toBeLessThan(1);
    expect(alpha(8, 30)).toBeCloseTo(wide(8, 30), 5);
    expect(alpha(50, 62)).toBe(0);
    expect(alpha(2, 2)).toBe(0);
  });

  it('takes a gap open to the box border for outline, not a hole', () => {
    const inside = regionWithHole([0, 0, 0, 0]);
    // A notch cut in from the left border, as a background bay beside a cheek.
    for (let y = 48; y < 52; y++) inside.fill(0, y * SIZE, y * SIZE + 30);
    const wide = at(featherMask(inside, SIZE, SIZE, 8));
    const alpha = at(featherMask(inside, SIZE, SIZE, 8, 3));
    expect(alpha(20, 45)).toBeCloseTo(wide(20, 45), 5);
    expect(alpha(20, 45)).toBeLessThan(1);
  });
});
