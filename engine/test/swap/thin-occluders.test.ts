import { describe, expect, it } from 'vitest';
import { keepThinOccluders } from '../../src/swap/thin-occluders';

const SIZE = 40;

/** A box whose face covers all but a 5 px border, every pixel skin (likeness 1), nothing marked. */
function box() {
  const face = new Uint8Array(SIZE * SIZE);
  for (let y = 5; y < SIZE - 5; y++) face.fill(1, y * SIZE + 5, y * SIZE + SIZE - 5);
  return { face, clearly: new Uint8Array(SIZE * SIZE), likeness: new Float32Array(SIZE * SIZE).fill(1) };
}

const mark = (mask: Uint8Array, x0: number, y0: number, x1: number, y1: number) => {
  for (let y = y0; y < y1; y++) mask.fill(1, y * SIZE + x0, y * SIZE + x1);
};

describe('thin lines across a face', () => {
  it('leaves out a thin line that comes in from beyond the outline, up to a thick patch it runs into', () => {
    const { face, clearly, likeness } = box();
    mark(clearly, 0, 20, 26, 22); // a line 2 px thick, from the box's edge
    mark(clearly, 26, 14, 34, 28); // a patch 8 px across at its end (an eye, a brow)
    keepThinOccluders(likeness, clearly, face, SIZE, SIZE, { halfWidth: 2, length: 10 });

    expect(likeness[21 * SIZE + 10]).toBe(0);
    expect(likeness[21 * SIZE + 20]).toBe(0);
    expect(likeness[21 * SIZE + 30]).toBe(1);
  });

  it('leaves out a thin line that runs on from what is already left out', () => {
    const { face, clearly, likeness } = box();
    mark(clearly, 10, 10, 12, 30);
    likeness[20 * SIZE + 9] = 0.3; // hair beside the line, left out already
    keepThinOccluders(likeness, clearly, face, SIZE, SIZE, { halfWidth: 2, length: 10 });

    expect(likeness[12 * SIZE + 11]).toBe(0);
    expect(likeness[28 * SIZE + 10]).toBe(0);
  });

  it("keeps a short thin line beside what is left out: a brow's tapering end by the hair", () => {
    const { face, clearly, likeness } = box();
    mark(clearly, 10, 20, 16, 22); // 6 px long
    likeness[21 * SIZE + 9] = 0.3;
    keepThinOccluders(likeness, clearly, face, SIZE, SIZE, { halfWidth: 2, length: 10 });

    expect(likeness[21 * SIZE + 12]).toBe(1);
  });

  it("keeps a thin line that touches nothing left out, nor anything but the mouth's hole", () => {
    const { face, clearly, likeness } = box();
    mark(clearly, 10, 10, 30, 12); // alone on the face
    face.fill(0, 25 * SIZE + 18, 25 * SIZE + 22); // a hole inside the face
    mark(clearly, 12, 26, 22, 28); // a line along the hole's lower edge
    keepThinOccluders(likeness, clearly, face, SIZE, SIZE, { halfWidth: 2, length: 10 });

    expect(likeness[11 * SIZE + 20]).toBe(1);
    expect(likeness[26 * SIZE + 15]).toBe(1);
  });

  it('with a reach inwards, keeps a line that runs along what is left out and leaves out one that crosses the face', () => {
    const alongHair = box();
    for (let y = 5; y < 35; y++) alongHair.likeness.fill(0, y * SIZE + 5, y * SIZE + 9); // hair down the face's side
    mark(alongHair.clearly, 9, 5, 11, 35); // the hair's dark edge beside it
    keepThinOccluders(alongHair.likeness, alongHair.clearly, alongHair.face, SIZE, SIZE, { halfWidth: 2, length: 10, inward: 8 });
    expect(alongHair.likeness[20 * SIZE + 10]).toBe(1);

    const across = box();
    mark(across.clearly, 0, 20, 40, 22); // from one side of the face to the other
    keepThinOccluders(across.likeness, across.clearly, across.face, SIZE, SIZE, { halfWidth: 2, length: 10, inward: 8 });
    expect(across.likeness[21 * SIZE + 20]).toBe(0);
  });

  it('with pixels to reach, keeps a line that stays above them (a brow running into the hair) and leaves out one that reaches them (a rim)', () => {
    const below = new Uint8Array(SIZE * SIZE);
    mark(below, 0, 20, SIZE, SIZE); // below the eyes' line
    const brow = box();
    mark(brow.clearly, 0, 12, 24, 14); // from beyond the outline along the brow, above the line
    keepThinOccluders(brow.likeness, brow.clearly, brow.face, SIZE, SIZE, { halfWidth: 2, length: 10, reaching: below });
    expect(brow.likeness[13 * SIZE + 15]).toBe(1);

    const rim = box();
    mark(rim.clearly, 0, 12, 24, 14);
    mark(rim.clearly, 22, 14, 24, 26); // on down beside the eye
    keepThinOccluders(rim.likeness, rim.clearly, rim.face, SIZE, SIZE, { halfWidth: 2, length: 10, reaching: below });
    expect(rim.likeness[13 * SIZE + 15]).toBe(0);
    expect(rim.likeness[24 * SIZE + 23]).toBe(0);
  });

  it('carries a line it leaves out on through the carry pixels it meets, only as far as the reach', () => {
    const { face, clearly, likeness } = box();
    mark(clearly, 0, 20, 20, 22); // a rim from beyond the outline, up to an eye's contour
    const pixels = new Uint8Array(SIZE * SIZE);
    mark(pixels, 20, 20, 34, 22); // its dark pixels on in the contour, not followed as a line
    mark(pixels, 20, 10, 22, 20); // a lash line along the contour, meeting the rim at its end
    keepThinOccluders(likeness, clearly, face, SIZE, SIZE, { halfWidth: 2, length: 10, carry: { pixels, reach: 4 } });

    expect(likeness[21 * SIZE + 23]).toBe(0);
    expect(likeness[21 * SIZE + 26]).toBe(1);
    expect(likeness[17 * SIZE + 20]).toBe(0);
    expect(likeness[12 * SIZE + 20]).toBe(1);
  });

  it('carries nothing on when it leaves no line out', () => {
    const { face, clearly, likeness } = box();
    mark(clearly, 10, 10, 30, 12); // a line alone on the face, kept
    const pixels = new Uint8Array(SIZE * SIZE);
    mark(pixels, 30, 10, 34, 12);
    keepThinOccluders(likeness, clearly, face, SIZE, SIZE, { halfWidth: 2, length: 10, carry: { pixels, reach: 4 } });

    expect(likeness[11 * SIZE + 31]).toBe(1);
  });
});
