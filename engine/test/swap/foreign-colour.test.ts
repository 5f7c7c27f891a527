import { describe, expect, it } from 'vitest';
import { findForeignColour, foreignness, withoutForeign } from '../../src/swap/foreign-colour';

const SIZE = 60;
type Lab = readonly [number, number, number];
/** A face's skin: a mid brown, its lightness spread by light and shade more than its colour. */
const SKIN: Lab = [50, 15, 25];
const SKIN_SPREAD: Lab = [6, 2, 3];

/** Normally distributed numbers from a fixed seed (Box-Muller over a linear congruential generator). */
function normals(seed: number): () => number {
  let state = seed;
  const uniform = () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return (state + 0.5) / 2 ** 32;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * A box of skin pixels in Lab (spread by `skinSpread`), every pixel learnt from, with the columns
 * left of `across` (a share of the box) of `other` colour instead: something lying across the face
 * from its left edge.
 */
function skinWith(other: { colour: Lab; spread: Lab; across: number }, skinSpread: Lab = SKIN_SPREAD, skin: Lab = SKIN): { lab: Float32Array; learnFrom: Uint8Array; isOther: (p: number) => boolean } {
  const normal = normals(7);
  const lab = new Float32Array(SIZE * SIZE * 3);
  const isOther = (p: number) => p % SIZE < other.across * SIZE;
  for (let p = 0; p < SIZE * SIZE; p++) {
    const [colour, spread] = isOther(p) ? [other.colour, other.spread] : [skin, skinSpread];
    lab.set([0, 1, 2].map((k) => colour[k]! + spread[k]! * normal()), p * 3);
  }
  return { lab, learnFrom: new Uint8Array(SIZE * SIZE).fill(1), isOther };
}

/** Pixels down the middle column of the box: where a nose bridge lies. */
const middle = Array.from({ length: SIZE }, (_, row) => row * SIZE + SIZE / 2);

const share = (pixels: number[], test: (p: number) => boolean) => pixels.filter(test).length / pixels.length;
const all = Array.from({ length: SIZE * SIZE }, (_, p) => p);

describe('a foreign colour among a face skin', () => {
  it("finds another person's paler, greyer hand across a third of the skin, and learns the skin without it", () => {
    const { lab, learnFrom, isOther } = skinWith({ colour: [70, 8, 6], spread: [4, 2, 2], across: 1 / 3 });
    const found = findForeignColour(lab, learnFrom, middle);

    expect(found).not.toBeNull();
    const hand = all.filter(isOther);
    const skin = all.filter((p) => !isOther(p));
    expect(share(hand, (p) => found!.skin[p] === 1)).toBeLessThan(0.02);
    expect(share(skin, (p) => found!.skin[p] === 1)).toBeGreaterThan(0.98);
    // Half of the hand lies beyond its own middle; the skin lies on its side of the valley.
    expect(share(hand, (p) => foreignness(lab, p, found!.foreign) >= 0.5)).toBeGreaterThan(0.8);
    expect(share(skin, (p) => foreignness(lab, p, found!.foreign) === 0)).toBeGreaterThan(0.98);
  });

  it.each([
    { skin: 'a colourful one', colour: SKIN, hand: [55, 6, 8] as Lab, spread: [6, 4, 6] as Lab },
    // A pale face of chroma 18-21 with a hand across it: the median chroma of its skin and the hand falls to 13-18.
    { skin: 'a paler one', colour: [60, 9, 14] as Lab, hand: [62, 2, 3] as Lab, spread: [6, 3, 4] as Lab },
  ])('finds a hand far greyer than a widely lit skin, $skin, at about its lightness, where no valley parts the two', ({ colour, hand, spread }) => {
    const { lab, learnFrom, isOther } = skinWith({ colour: hand, spread: [6, 2, 2], across: 1 / 3 }, spread, colour);
    const found = findForeignColour(lab, learnFrom, middle);

    expect(found).not.toBeNull();
    expect(share(all.filter(isOther), (p) => found!.skin[p] === 1)).toBeLessThan(0.05);
    expect(share(all.filter((p) => !isOther(p)), (p) => found!.skin[p] === 1)).toBeGreaterThan(0.95);
  });

  it('finds a greyer hand lighter than the skin where it also lies beyond the outline, but not shine that stays on the face', () => {
    // The box's left sixth lies beyond the face's outline; a hand comes in across it over the next
    // sixth of the skin, its colour blending into the skin's (its soft edge, its shading): no valley.
    const beyondOutline = (p: number) => p % SIZE < SIZE / 6;
    const isHand = (p: number) => p % SIZE < SIZE / 3;
    const skin: Lab = [50, 15, 25];
    const paint = (hand: Lab, outside: Lab) => {
      const normal = normals(13);
      const lab = new Float32Array(SIZE * SIZE * 3);
      for (let p = 0; p < SIZE * SIZE; p++) {
        // From halfway between the skin and the hand's colour to a little past it.
        const mix = 0.5 + ((0.5 * Math.abs(normal())) % 1);
        const colour = beyondOutline(p) && outside !== hand ? outside : isHand(p) ? skin.map((v, k) => v + mix * (hand[k]! - v)) : skin;
        lab.set([0, 1, 2].map((k) => colour[k]! + (isHand(p) ? [2, 1, 1] : [6, 2, 3])[k]! * normal()), p * 3);
      }
      return lab;
    };
    const learnFrom = Uint8Array.from(all, (p) => (beyondOutline(p) ? 0 : 1));
    const beyond = Uint8Array.from(all, (p) => (beyondOutline(p) ? 1 : 0));
    const hand: Lab = [60, 5, 7];
    const lab = paint(hand, hand);
    // Within a spread of the skin's lightness, too few of its pixels are greyer than it to be a colour of their own.
    expect(findForeignColour(lab, learnFrom, middle)).toBeNull();

    const found = findForeignColour(lab, learnFrom, middle, null, beyond);

    expect(found).not.toBeNull();
    const onFace = all.filter((p) => isHand(p) && !beyondOutline(p));
    expect(share(onFace, (p) => found!.skin[p] === 1)).toBeLessThan(0.3);
    expect(share(all.filter((p) => !isHand(p)), (p) => found!.skin[p] === 1)).toBeGreaterThan(0.95);
    // The same pale patch with dark hair beyond the outline: shine, left to the skin's reach.
    expect(findForeignColour(paint(hand, [20, 5, 5]), learnFrom, middle, null, beyond)).toBeNull();
  });

  it('takes the side holding the nose bridge for the skin when a hand covers more of it than is left', () => {
    const { lab, learnFrom, isOther } = skinWith({ colour: [70, 8, 6], spread: [4, 2, 2], across: 0.55 });
    const bridge = middle.map((p) => p + 5);
    const found = findForeignColour(lab, learnFrom, bridge);

    expect(found).not.toBeNull();
    expect(share(all.filter(isOther), (p) => found!.skin[p] === 1)).toBeLessThan(0.02);
    expect(share(bridge, (p) => found!.skin[p] === 1)).toBe(1);
  });

  it('finds none in skin half in shade, darker and greyer together, as hair or shade is', () => {
    const { lab, learnFrom } = skinWith({ colour: [25, 10, 10], spread: [3, 2, 2], across: 1 / 3 });

    expect(findForeignColour(lab, learnFrom, middle)).toBeNull();
  });

  it('finds none in one colour with a long tail towards its highlights', () => {
    const normal = normals(11);
    const lab = new Float32Array(SIZE * SIZE * 3);
    for (let p = 0; p < SIZE * SIZE; p++) {
      // Lighter and greyer together, as a hand would be, but without a valley: one skewed colour.
      const highlight = 20 * Math.abs(normal()) ** 2;
      lab.set([SKIN[0] + highlight, SKIN[1] - 0.2 * highlight + normal(), SKIN[2] - 0.4 * highlight + normal()], p * 3);
    }

    expect(findForeignColour(lab, new Uint8Array(SIZE * SIZE).fill(1), middle)).toBeNull();
  });

  it('leaves the colour found on one grid out of the same face on another grid', () => {
    const fine = skinWith({ colour: [70, 8, 6], spread: [4, 2, 2], across: 1 / 3 });
    const found = findForeignColour(fine.lab, fine.learnFrom, middle)!;
    // The same face's pixels drawn again, as a coarser grid's would be: other noise, the same colours.
    const normal = normals(23);
    const coarse = fine.lab.map((value) => value + 0.5 * normal());

    const skin = withoutForeign(coarse, fine.learnFrom, found.foreign);

    expect(share(all.filter(fine.isOther), (p) => skin[p] === 1)).toBeLessThan(0.02);
    expect(share(all.filter((p) => !fine.isOther(p)), (p) => skin[p] === 1)).toBeGreaterThan(0.98);
  });

  it('takes a colour remembered from the frame before while it is still there, where the search alone loses it', () => {
    const before = skinWith({ colour: [70, 8, 6], spread: [4, 2, 2], across: 1 / 3 });
    const remembered = findForeignColour(before.lab, before.learnFrom, middle)!.foreign;
    // The next frame: the hand covers half the skin and spreads widely (shaded fingers), no clear
    // valley, and on the whole not much greyer than the skin.
    const { lab, learnFrom, isOther } = skinWith({ colour: [66, 10, 13], spread: [8, 3, 6], across: 0.5 });
    expect(findForeignColour(lab, learnFrom, middle)).toBeNull();

    const found = findForeignColour(lab, learnFrom, middle, remembered);

    expect(found?.foreign).toBe(remembered);
    expect(share(all.filter(isOther), (p) => found!.skin[p] === 1)).toBeLessThan(0.5);
    expect(share(all.filter((p) => !isOther(p)), (p) => found!.skin[p] === 1)).toBeGreaterThan(0.98);
  });

  it('forgets a remembered colour once it has left the skin', () => {
    const before = skinWith({ colour: [70, 8, 6], spread: [4, 2, 2], across: 1 / 3 });
    const remembered = findForeignColour(before.lab, before.learnFrom, middle)!.foreign;
    const { lab, learnFrom } = skinWith({ colour: SKIN, spread: SKIN_SPREAD, across: 0 });

    expect(findForeignColour(lab, learnFrom, middle, remembered)).toBeNull();
  });
});
