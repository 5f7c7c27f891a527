import { describe, expect, it } from 'vitest';
import { dropSpecks } from '../../src/swap/drop-specks';

const SIZE = 100;

/** A `SIZE` px square likeness map of `background` with the patch [x0, y0, x1, y1) set to `value`, after `dropSpecks`. */
function dropped(background: number, [x0, y0, x1, y1]: [number, number, number, number], value: number): (x: number, y: number) => number {
  const likeness = new Float32Array(SIZE * SIZE).fill(background);
  for (let y = y0; y < y1; y++) likeness.fill(value, y * SIZE + x0, y * SIZE + x1);
  dropSpecks(likeness, SIZE, SIZE);
  return (x, y) => likeness[y * SIZE + x]!;
}

describe('specks of a likeness map', () => {
  it('raises a speck of not-skin in hair scored partly skin to the likeness around it', () => {
    expect(dropped(0.6, [40, 40, 42, 42], 0)(41, 41)).toBeCloseTo(0.6, 5);
  });

  it('raises a speck on plain skin to skin', () => {
    expect(dropped(1, [60, 20, 63, 22], 0.3)(61, 21)).toBe(1);
  });

  it('keeps a thin strand of hair, longer than a speck', () => {
    expect(dropped(1, [30, 10, 31, 60], 0)(30, 35)).toBe(0);
  });

  it('keeps a patch as wide as a hand', () => {
    expect(dropped(1, [50, 50, 70, 70], 0)(60, 60)).toBe(0);
  });

  it("keeps a small patch at the box's edge, where what lies beyond it is not seen", () => {
    expect(dropped(1, [0, 50, 2, 52], 0)(0, 50)).toBe(0);
  });

  it('keeps a darker patch that is not far below the likeness around it', () => {
    expect(dropped(0.6, [40, 40, 42, 42], 0.4)(41, 41)).toBeCloseTo(0.4, 5);
  });
});
