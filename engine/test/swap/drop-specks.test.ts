import { describe, expect, it } from 'vitest';
import { dropSpecks } from '../../src/swap/drop-specks';

const SIZE = 100;

/** A likeness map of `SIZE` px square, `value` everywhere. */
const map = (value: number) => new Float32Array(SIZE * SIZE).fill(value);

const paint = (likeness: Float32Array, x0: number, y0: number, x1: number, y1: number, value: number) => {
  for (let y = y0; y < y1; y++) likeness.fill(value, y * SIZE + x0, y * SIZE + x1);
};

describe('specks of a likeness map', () => {
  it('raises a speck of not-skin in hair scored partly skin to the likeness around it', () => {
    const likeness = map(0.6);
    paint(likeness, 40, 40, 42, 42, 0);
    dropSpecks(likeness, SIZE, SIZE);

    expect(likeness[41 * SIZE + 41]).toBeCloseTo(0.6, 5);
  });

  it('raises a speck on plain skin to skin', () => {
    const likeness = map(1);
    paint(likeness, 60, 20, 63, 22, 0.3);
    dropSpecks(likeness, SIZE, SIZE);

    expect(likeness[21 * SIZE + 61]).toBe(1);
  });

  it('keeps a thin strand of hair, longer than a speck', () => {
    const likeness = map(1);
    paint(likeness, 30, 10, 31, 60, 0);
    dropSpecks(likeness, SIZE, SIZE);

    expect(likeness[35 * SIZE + 30]).toBe(0);
  });

  it('keeps a patch as wide as a hand', () => {
    const likeness = map(1);
    paint(likeness, 50, 50, 70, 70, 0);
    dropSpecks(likeness, SIZE, SIZE);

    expect(likeness[60 * SIZE + 60]).toBe(0);
  });

  it("keeps a small patch at the box's edge, where what lies beyond it is not seen", () => {
    const likeness = map(1);
    paint(likeness, 0, 50, 2, 52, 0);
    dropSpecks(likeness, SIZE, SIZE);

    expect(likeness[50 * SIZE]).toBe(0);
  });

  it('keeps a darker patch that is not far below the likeness around it', () => {
    const likeness = map(0.6);
    paint(likeness, 40, 40, 42, 42, 0.4);
    dropSpecks(likeness, SIZE, SIZE);

    expect(likeness[41 * SIZE + 41]).toBeCloseTo(0.4, 5);
  });
});
