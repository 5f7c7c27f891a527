import { describe, expect, it } from 'vitest';
import type { ForeignColour } from '../../src/swap/foreign-colour';
import { learnSkin, skinLikeness } from '../../src/swap/skin-likeness';

const SIZE = 100;
const SKIN = [60, 15, 20] as const;

/** A box of plain skin (a ±1 ripple on lightness), learnt from its middle, judged and counted as face everywhere but a 2 px rim. */
function skinBox(): { lab: Float32Array; learnFrom: Uint8Array; judge: Uint8Array; face: Uint8Array } {
  const lab = new Float32Array(SIZE * SIZE * 3);
  const learnFrom = new Uint8Array(SIZE * SIZE);
  const face = new Uint8Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const p = y * SIZE + x;
      lab.set([SKIN[0] + ((x + y) % 3) - 1, SKIN[1], SKIN[2]], p * 3);
      if (x >= 30 && x < 70 && y >= 30 && y < 70) learnFrom[p] = 1;
      if (x >= 2 && x < SIZE - 2 && y >= 2 && y < SIZE - 2) face[p] = 1;
    }
  }
  return { lab, learnFrom, judge: face.slice(), face };
}

describe('skin likeness', () => {
  it('scores a patch of 8 px blocks that are partly skin as a smooth fade, not as blocks', () => {
    const box = skinBox();
    // Blocks reaching the left outline, alternately 1.1 and 1.4 reaches of hue off the skin (each partly skin alone).
    for (let y = 20; y < 80; y++) {
      for (let x = 2; x < 26; x++) {
        const offset = (Math.floor(x / 8) + Math.floor(y / 8)) % 2 ? 5.6 : 4.4;
        box.lab[(y * SIZE + x) * 3 + 1] = SKIN[1] + offset;
      }
    }
    const likeness = skinLikeness(box.lab, learnSkin(box.lab, box.learnFrom), box.judge, box.face, SIZE, SIZE);

    let largestStep = 0;
    for (let y = 28; y < 72; y++) {
      for (let x = 4; x < 22; x++) largestStep = Math.max(largestStep, Math.abs(likeness[y * SIZE + x + 1]! - likeness[y * SIZE + x]!));
    }
    // Scored pixel by pixel, the step at each block's edge would be 0.6.
    expect(largestStep).toBeLessThan(0.2);
    expect(likeness[50 * SIZE + 12]!).toBeLessThan(0.8);
  });

  it('keeps a thin strand of dark hair across the face as not skin', () => {
    const box = skinBox();
    const strand: number[] = [];
    for (let y = 49; y < 52; y++) {
      for (let x = 2; x < 60; x++) {
        strand.push(y * SIZE + x);
        box.lab.set([15, 2, 3], (y * SIZE + x) * 3);
      }
    }
    const likeness = skinLikeness(box.lab, learnSkin(box.lab, box.learnFrom), box.judge, box.face, SIZE, SIZE);

    expect(Math.max(...strand.map((p) => likeness[p]!))).toBe(0);
    expect(likeness[30 * SIZE + 30]!).toBe(1);
  });

  it('leaves out follow-only pixels (a brow at the outline) only near where hair reaching outside comes into them', () => {
    const darken = (lab: Float32Array, x0: number, x1: number, y0: number, y1: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) lab.set([20, 5, 5], (y * SIZE + x) * 3);
    };
    // A brow reaching the left outline, in pixels judged only near a patch that reaches out elsewhere.
    const followOnly = new Uint8Array(SIZE * SIZE);
    for (let y = 20; y < 28; y++) for (let x = 2; x < 50; x++) followOnly[y * SIZE + x] = 1;
    const alone = skinBox();
    darken(alone.lab, 2, 50, 20, 28);
    const withHair = skinBox();
    darken(withHair.lab, 2, 50, 20, 28);
    // Hair falling from the outline over plain skin just below the brow's end, touching it.
    darken(withHair.lab, 2, 10, 28, 60);

    const [end, middle] = [24 * SIZE + 12, 24 * SIZE + 40];
    const withoutHair = skinLikeness(alone.lab, learnSkin(alone.lab, alone.learnFrom), alone.judge, alone.face, SIZE, SIZE, { followOnly: { pixels: followOnly } });
    const hairCameIn = skinLikeness(withHair.lab, learnSkin(withHair.lab, withHair.learnFrom), withHair.judge, withHair.face, SIZE, SIZE, { followOnly: { pixels: followOnly } });
    expect(withoutHair[end]!).toBe(1);
    expect(hairCameIn[end]!).toBe(0);
    // 5 % of the box (5 px) from the hair at most: the rest of the brow stays.
    expect(hairCameIn[middle]!).toBe(1);
    // Without follow-only pixels, a dark patch at the outline is left out on its own.
    expect(skinLikeness(alone.lab, learnSkin(alone.lab, alone.learnFrom), alone.judge, alone.face, SIZE, SIZE)[middle]!).toBe(0);
  });

  it('follows hair darker than the skin further into the brows\' zone, but not a pale patch', () => {
    // A band of follow-only pixels from the left outline, all of it in the brows' zone.
    const band = new Uint8Array(SIZE * SIZE);
    for (let y = 20; y < 28; y++) for (let x = 2; x < 60; x++) band[y * SIZE + x] = 1;
    const fill = (lab: Float32Array, colour: number[], x0: number, x1: number, y0: number, y1: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) lab.set(colour, (y * SIZE + x) * 3);
    };
    const withFalling = (colour: number[]) => {
      const box = skinBox();
      // Falling from the outline below the band and across it, as hair across a temple and a brow's end.
      fill(box.lab, colour, 2, 10, 28, 60);
      fill(box.lab, colour, 2, 40, 20, 28);
      return box;
    };
    const likenessOf = (box: ReturnType<typeof skinBox>, darkFurther?: Uint8Array) =>
      skinLikeness(box.lab, learnSkin(box.lab, box.learnFrom), box.judge, box.face, SIZE, SIZE, { followOnly: { pixels: band, darkFurther } });
    // 12 steps into the band from the hair below: beyond 5 % of the box, within 12 % (the map's soft edge reaches a few px).
    const inBand = 24 * SIZE + 18;

    const hair = withFalling([20, 5, 5]);
    expect(likenessOf(hair)[inBand]!).toBeGreaterThan(0.9);
    expect(likenessOf(hair, band)[inBand]!).toBe(0);
    const pale = withFalling([SKIN[0] + 25, SKIN[1], SKIN[2]]);
    expect(likenessOf(pale, band)[inBand]!).toBeGreaterThan(0.9);
  });

  it('gives colours lighter than the skin less room than darker ones (a pale wall, not a shadow)', () => {
    const box = skinBox();
    // At the left outline, a band 15 lightness units above the skin; at the right one, 15 below.
    for (let y = 30; y < 70; y++) {
      for (let x = 2; x < 12; x++) box.lab[(y * SIZE + x) * 3] = SKIN[0] + 15;
      for (let x = SIZE - 12; x < SIZE - 2; x++) box.lab[(y * SIZE + x) * 3] = SKIN[0] - 15;
    }
    const likeness = skinLikeness(box.lab, learnSkin(box.lab, box.learnFrom), box.judge, box.face, SIZE, SIZE);

    expect(likeness[50 * SIZE + 6]!).toBe(0);
    expect(likeness[50 * SIZE + SIZE - 6]!).toBeGreaterThan(0.3);
  });

  it('tells hair from skin lit by two colours by the skin around it, when asked to follow the light', () => {
    // Light going from blue on the left to warm on the right (b* -5 → 35), and a strand of warm
    // brown hair coming in across the blue side, within the whole face's spread of colour.
    const box = skinBox();
    const hair: number[] = [];
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        const p = y * SIZE + x;
        const isHair = x < 25 && y >= 40 && y < 60;
        if (isHair && box.judge[p]) hair.push(p);
        box.lab.set(isHair ? [55, 12, 30] : [SKIN[0] + ((x + y) % 3) - 1, SKIN[1], -5 + (40 * x) / SIZE], p * 3);
        box.learnFrom[p] = isHair ? 0 : box.face[p]!;
      }
    }
    const learnt = learnSkin(box.lab, box.learnFrom);
    const judged = (followLight: boolean) => skinLikeness(box.lab, learnt, box.judge, box.face, SIZE, SIZE, { tolerance: 1.5, followLight });

    const oneColour = judged(false);
    const followed = judged(true);

    expect(Math.min(...hair.map((p) => oneColour[p]!))).toBe(1);
    expect(Math.max(...hair.map((p) => followed[p]!))).toBe(0);
    for (const [x, y] of [[10, 20], [50, 50], [90, 80]] as const) expect(followed[y * SIZE + x]!).toBe(1);
  });

  it('tells fair hair from skin by its hue when asked to, where each channel alone takes it for skin, but not a shadow', () => {
    // Skin shaded from top to bottom (L* 50-70, chroma 20-50) at one hue (55° ± 3°); at the left
    // outline a band of fair hair (lighter than the skin's median, chroma within the skin's, hue
    // 80°); at the right one, a shadow of the same hue, darker than the median.
    const box = skinBox();
    const hair: number[] = [];
    const shadow: number[] = [];
    const skin: number[] = [];
    const atHue = (lightness: number, chroma: number, degrees: number) => [lightness, chroma * Math.cos((degrees * Math.PI) / 180), chroma * Math.sin((degrees * Math.PI) / 180)];
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        const p = y * SIZE + x;
        const band = y >= 40 && y < 60 ? (x < 25 ? hair : x >= SIZE - 25 ? shadow : null) : null;
        if (box.judge[p]) (band ?? skin).push(p);
        const colour = band === hair ? atHue(66, 28, 80) : band === shadow ? atHue(48, 28, 80) : atHue(50 + (20 * y) / SIZE, 20 + (30 * x) / SIZE, 55 + ((x * 7 + y * 3) % 7) - 3);
        box.lab.set(colour, p * 3);
        box.learnFrom[p] = band ? 0 : box.face[p]!;
      }
    }
    const learnt = learnSkin(box.lab, box.learnFrom);
    const judged = (hue: boolean) => skinLikeness(box.lab, learnt, box.judge, box.face, SIZE, SIZE, { tolerance: 1.5, hue });

    const byChannel = judged(false);
    const byHue = judged(true);

    expect(Math.min(...hair.map((p) => byChannel[p]!))).toBe(1);
    expect(Math.max(...hair.map((p) => byHue[p]!))).toBe(0);
    expect(Math.min(...shadow.map((p) => byHue[p]!))).toBe(1);
    // The skin 10 px and more from the bands (the map is softened across their edges).
    expect(Math.min(...skin.filter((p) => p % SIZE >= 35 && p % SIZE < SIZE - 35).map((p) => byHue[p]!))).toBe(1);
  });
  /**
   * A hand of a foreign colour coming in across the left outline (x 2-29), a band partway from its
   * valley to it beside the hand (x 30-39), and a patch of the same partway colour on its own at
   * the right (x 70-79); judged with room for the skin to spread (tolerance 2), the partway colour
   * alone passes for skin. `offset` moves a pixel from the skin towards the colour by a share of
   * the way to its mean (below 0.5 of the way past the valley, partway).
   */
  function handWithPartwayBand(foreign: ForeignColour, offset: (lab: Float32Array, p: number, share: number) => void): { likeness: Float32Array; band: number[]; alone: number[] } {
    const box = skinBox();
    const band: number[] = [];
    const alone: number[] = [];
    for (let y = 40; y < 60; y++) {
      for (let x = 2; x < 80; x++) {
        const p = y * SIZE + x;
        if (x < 30) offset(box.lab, p, 1);
        else if (x < 40 || x >= 70) offset(box.lab, p, 0.15);
        if (x >= 36 && x < 40) band.push(p);
        if (x >= 73 && x < 77) alone.push(p);
      }
    }
    const learnt = learnSkin(box.lab, box.learnFrom);
    return { likeness: skinLikeness(box.lab, learnt, box.judge, box.face, SIZE, SIZE, { tolerance: 2, foreign }), band, alone };
  }
  // A colour's place along its axis, in weighted Lab (lightness counts half), from the skin's own colour.
  const placed = (foreign: ForeignColour, share: number) => foreign.split + share * (foreign.centre - foreign.split);

  it("leaves out a lighter or greyer foreign colour's partway pixels where they join its clear ones, a hand's sides", () => {
    // Greyer: b* down from the skin's 20, the valley at 15, the colour's mean at 10.
    const greyer: ForeignColour = { origin: [SKIN[0] / 2, SKIN[1], SKIN[2]], axis: [0, 0, -1], split: 5, centre: 10 };
    const { likeness, band, alone } = handWithPartwayBand(greyer, (lab, p, share) => {
      lab[p * 3 + 2] = SKIN[2] - placed(greyer, share);
    });

    expect(Math.max(...band.map((p) => likeness[p]!))).toBe(0);
    expect(Math.min(...alone.map((p) => likeness[p]!))).toBe(1);
  });

  it("keeps for skin a darker foreign colour's partway pixels beside it: the face's own eyes, brows and shade lie there", () => {
    // Darker: 10 L* from the skin to the valley, 30 L* to the colour's mean.
    const darker: ForeignColour = { origin: [SKIN[0] / 2, SKIN[1], SKIN[2]], axis: [-1, 0, 0], split: 5, centre: 15 };
    const { likeness, band } = handWithPartwayBand(darker, (lab, p, share) => {
      lab[p * 3] = SKIN[0] - 2 * placed(darker, share);
    });

    // Past the fade that softens the hand's own edge.
    expect(Math.min(...band.map((p) => likeness[p]!))).toBeGreaterThan(0.97);
  });
});
