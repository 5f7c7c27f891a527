import { describe, expect, it } from 'vitest';
import { fillNotSkin } from '../../src/swap/fill-not-skin';

/** A 60 px square of skin (200) with a band of hair (40, not skin) down its middle, its edges (120) drawn with `edgeConfidence`. */
function hairBand(edgeConfidence = 0) {
  const size = 60;
  const rgb = new Float32Array(size * size * 3).fill(200);
  const confidence = new Float32Array(size * size).fill(1);
  for (let y = 0; y < size; y++) {
    for (let x = 26; x < 34; x++) {
      const p = y * size + x;
      const edge = x === 26 || x === 33;
      rgb.fill(edge ? 120 : 40, p * 3, p * 3 + 3);
      confidence[p] = edge ? edgeConfidence : 0;
    }
  }
  return { rgb, confidence, covered: new Uint8Array(size * size).fill(1), size };
}

describe('painting skin over what hides the source face', () => {
  it('paints the skin around over hair the source shows, and counts it as the face', () => {
    const { rgb, confidence, covered, size } = hairBand();
    const filled = fillNotSkin(rgb, confidence, covered, size, size);

    const p = 30 * size + 30;
    expect(rgb[p * 3]).toBeCloseTo(200, 0);
    expect(filled[p]).toBe(1);
  });

  it("paints fully over a hair's soft edge that is a third skin", () => {
    const { rgb, confidence, covered, size } = hairBand(0.3);
    fillNotSkin(rgb, confidence, covered, size, size);

    expect(rgb[(30 * size + 26) * 3]).toBeGreaterThan(195);
  });

  it('leaves a pixel that is surely skin as drawn', () => {
    const { rgb, confidence, covered, size } = hairBand();
    rgb.fill(180, 0, 3);
    fillNotSkin(rgb, confidence, covered, size, size);

    expect(rgb[0]).toBe(180);
  });
});
