import { describe, expect, it } from 'vitest';
import { allPixels } from '../../src/swap/mask-indices';
import { labToRgb, toLab } from '../../src/swap/lab-colour';
import { learnSkin } from '../../src/swap/skin-likeness';
import { transferTone } from '../../src/swap/transfer-colour';

const SIZE = 60;
const PIXELS = SIZE * SIZE;
const everywhere = () => new Uint8Array(PIXELS).fill(1);

/**
 * A box of skin in Lab whose b* swings by up to `swing` (and L* by up to `shading`) across stripes
 * about five pixels wide, with small noise on every channel.
 */
function stripedSkin(lightness: number, a: number, b: number, swing: number, shading = 0): Float32Array {
  const lab = new Float32Array(PIXELS * 3);
  for (let p = 0; p < PIXELS; p++) {
    const x = p % SIZE;
    lab.set([lightness + shading * Math.sin(x * 0.9 + 0.3) + Math.sin(p * 0.7), a + 0.8 * Math.cos(p * 1.3), b + swing * Math.sin(x * 1.3) + 0.8 * Math.sin(p * 2.1)], p * 3);
  }
  return lab;
}

/** The source's skin (Lab, changed into the toned RGB in place) toned like the target's, and the spread of each channel of the result. */
function tone(source: Float32Array, target: Float32Array): number[] {
  labToRgb(source, allPixels(PIXELS));
  transferTone({
    warped: source,
    targetLab: target,
    apply: allPixels(PIXELS),
    targetSkin: learnSkin(target, everywhere()),
    warpedSkin: everywhere(),
    width: SIZE,
    height: SIZE,
  });
  return learnSkin(toLab(source), everywhere()).spread;
}

describe('tone transfer', () => {
  it("keeps a source's colour detail at no more than twice the target skin's spread, so a second light's colour does not come through", () => {
    const target = stripedSkin(60, 12, 25, 1);
    const targetSpread = learnSkin(target, everywhere()).spread;
    // The source's b* swings 30 units across its stripes, as under a blue and an orange light.
    const spread = tone(stripedSkin(60, 15, 10, 15), target);
    expect(spread[2]!).toBeLessThanOrEqual(2 * targetSpread[2]! + 0.5);
  });

  it("lowers a lit source's contrast on a dark target as the darker light would", () => {
    // The source's skin at L* 60 spreads about 10 units; the target's at L* 20 about 2.
    const source = stripedSkin(60, 15, 10, 3, 14);
    const sourceSpread = learnSkin(source, everywhere()).spread;
    const spread = tone(source, stripedSkin(20, 5, 10, 3, 2));
    // At most the contrast floor (0.8) times the light's effect at L* 20 against 60, (20 + 16) / (60 + 16).
    expect(spread[0]!).toBeLessThanOrEqual(0.8 * (36 / 76) * sourceSpread[0]! + 0.5);
  });

  it("keeps a source's colour detail when it spreads about as widely as the target's", () => {
    const target = stripedSkin(60, 12, 25, 3);
    const source = stripedSkin(60, 15, 10, 3);
    const sourceSpread = learnSkin(source, everywhere()).spread;
    const spread = tone(source, target);
    expect(spread[2]!).toBeGreaterThan(0.8 * sourceSpread[2]! - 0.5);
  });

  it("keeps a warm, dark source's least colourful pixels on their side of grey on a pale target", () => {
    // A dark, warm source (L* 45, b* 28) with a shadowed eye socket nearly grey (b* 5) in its middle,
    // left out of its skin as the eyes are; the target is pale and little coloured (L* 75, b* 12).
    const source = stripedSkin(45, 18, 28, 2);
    const socket = (p: number) => Math.abs((p % SIZE) - SIZE / 2) < 8 && Math.abs(Math.floor(p / SIZE) - SIZE / 2) < 5;
    for (let p = 0; p < PIXELS; p++) if (socket(p)) source.set([25, 3, 5], p * 3);
    const skin = Uint8Array.from({ length: PIXELS }, (_, p) => (socket(p) ? 0 : 1));
    const target = stripedSkin(75, 8, 12, 1);
    labToRgb(source, allPixels(PIXELS));
    transferTone({ warped: source, targetLab: target, apply: allPixels(PIXELS), targetSkin: learnSkin(target, everywhere()), warpedSkin: skin, width: SIZE, height: SIZE });
    const toned = toLab(source);
    const inSocket = Array.from({ length: PIXELS }, (_, p) => p).filter(socket);
    // Shifted by the skins' difference (b* 28 → 12), the socket came out blue (b* about -6).
    for (const p of inSocket) expect(toned[p * 3 + 2]!).toBeGreaterThan(0);
    // The skin itself lands on the target's colour.
    const toneOfSkin = learnSkin(toned, skin).median;
    expect(Math.abs(toneOfSkin[1]! - 8)).toBeLessThan(1.5);
    expect(Math.abs(toneOfSkin[2]! - 12)).toBeLessThan(1.5);
  });

  it("keeps a dark source's features as deep as the lights' ratio makes them on a paler target, and its skin's shading as its spread", () => {
    // A dark source (skin L* 40) with a feature (an eye's shadow) 25 units below it, left out of its
    // skin; a pale target (L* 75): in L* + 16 the light is (75 + 16) / (40 + 16) = 1.6 times as strong.
    const source = stripedSkin(40, 12, 18, 2, 3);
    const shadow = (p: number) => Math.abs((p % SIZE) - SIZE / 2) < 8 && Math.abs(Math.floor(p / SIZE) - SIZE / 2) < 5;
    for (let p = 0; p < PIXELS; p++) if (shadow(p)) source.set([15, 8, 12], p * 3);
    const skin = Uint8Array.from({ length: PIXELS }, (_, p) => (shadow(p) ? 0 : 1));
    const target = stripedSkin(75, 10, 16, 2, 3);
    labToRgb(source, allPixels(PIXELS));
    const shadowed = Float32Array.from({ length: PIXELS }, (_, p) => (shadow(p) ? 1 : 0));
    transferTone({ warped: source, targetLab: target, apply: allPixels(PIXELS), targetSkin: learnSkin(target, everywhere()), warpedSkin: skin, shadowed, width: SIZE, height: SIZE });
    const toned = toLab(source);
    const skinLightness = learnSkin(toned, skin).median[0]!;
    // Shifted by the skins' difference, the feature stood 25 units below the new skin, washed out.
    for (let p = 0; p < PIXELS; p++) if (shadow(p)) expect(skinLightness - toned[p * 3]!).toBeGreaterThan(1.5 * 25);
    // The skin's own shading (its stripes, 3 units either way) is scaled by the spreads, not deepened.
    expect(learnSkin(toned, skin).spread[0]!).toBeLessThan(1.3 * learnSkin(target, everywhere()).spread[0]!);
  });
});
