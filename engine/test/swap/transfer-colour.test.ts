import { describe, expect, it } from 'vitest';
import { allPixels } from '../../src/swap/mask-indices';
import { labToRgb, toLab } from '../../src/swap/lab-colour';
import { learnSkin } from '../../src/swap/skin-likeness';
import { transferTone } from '../../src/swap/transfer-colour';

const SIZE = 60;
const PIXELS = SIZE * SIZE;
const everywhere = () => new Uint8Array(PIXELS).fill(1);

/** A box of skin in Lab whose b* swings by up to `swing` across stripes about five pixels wide, with small noise on every channel. */
function stripedSkin(lightness: number, a: number, b: number, swing: number): Float32Array {
  const lab = new Float32Array(PIXELS * 3);
  for (let p = 0; p < PIXELS; p++) {
    const x = p % SIZE;
    lab.set([lightness + Math.sin(p * 0.7), a + 0.8 * Math.cos(p * 1.3), b + swing * Math.sin(x * 1.3) + 0.8 * Math.sin(p * 2.1)], p * 3);
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

  it("keeps a source's colour detail when it spreads about as widely as the target's", () => {
    const target = stripedSkin(60, 12, 25, 3);
    const source = stripedSkin(60, 15, 10, 3);
    const sourceSpread = learnSkin(source, everywhere()).spread;
    const spread = tone(source, target);
    expect(spread[2]!).toBeGreaterThan(0.8 * sourceSpread[2]! - 0.5);
  });
});
