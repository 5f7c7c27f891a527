import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { classifyImage } from '../../src/scan/classify';
import { DEFAULT_SCAN_THRESHOLDS, scanFrames, scanImage } from '../../src/scan/verdict';
import { animatedGif, DEMO_PHOTOS, demoPhoto, jpegStills, SEXY_ONLY } from './fixtures';

describe('scanImage with the default thresholds', () => {
  it.each(DEMO_PHOTOS)('passes demo party photo %i', async (n) => {
    const result = await scanImage(await demoPhoto(n));

    expect(result.verdict).toBe('clean');
    expect(result.reason).toBeUndefined();
  });

  // Small, smoothed copies are where the model drifts towards Porn and Hentai (up to 0.80 and 0.57).
  it.each(DEMO_PHOTOS)('passes copies of demo photo %i from 1024 down to 224 px wide', async (n) => {
    const photo = await demoPhoto(n);
    for (const width of [1024, 640, 480, 320, 224]) {
      const copy = await sharp(photo).resize({ width }).jpeg({ quality: 75 }).toBuffer();
      expect({ width, verdict: (await scanImage(copy)).verdict }).toEqual({ width, verdict: 'clean' });
    }
  });

  it('never flags on Sexy alone', () => {
    expect(DEFAULT_SCAN_THRESHOLDS.sexy).toBe(1);
  });
});

describe('scanImage thresholds', () => {
  it('flags a photo when every threshold is 0, and says which score decided', async () => {
    const result = await scanImage(await demoPhoto(1), { porn: 0, hentai: 0, sexy: 0 });

    expect(result.verdict).toBe('flagged');
    expect(result.reason).toMatch(/^(Porn|Hentai|Sexy) \d\.\d\d > 0$/);
  });

  it('flags exactly when a score exceeds its threshold', async () => {
    const photo = await demoPhoto(5);
    const { Porn } = (await classifyImage(photo)).scores;

    const below = await scanImage(photo, { porn: Porn - 0.001, hentai: 1, sexy: 1 });
    const above = await scanImage(photo, { porn: Porn + 0.001, hentai: 1, sexy: 1 });

    expect(below.verdict).toBe('flagged');
    expect(below.reason).toBe(`Porn ${Porn.toFixed(2)} > ${Porn - 0.001}`);
    expect(below.scores.Porn).toBe(Porn);
    expect(above.verdict).toBe('clean');
  });

  it('flags on Sexy when an operator sets a Sexy threshold', async () => {
    const photo = await demoPhoto(2);

    expect((await scanImage(photo)).verdict).toBe('clean');
    expect((await scanImage(photo, { porn: 1, hentai: 1 })).verdict).toBe('clean');
    expect(await scanImage(photo, SEXY_ONLY)).toMatchObject({ verdict: 'flagged', reason: expect.stringMatching(/^Sexy 0\.9\d > 0\.5$/) });
  });

  it.each([
    { porn: 1.5, hentai: 0.85, sexy: 1 },
    { porn: 0.9, hentai: -0.1, sexy: 1 },
    { porn: 0.9, hentai: 0.85, sexy: Number.NaN },
  ])('rejects thresholds outside [0, 1]: %o', async (thresholds) => {
    await expect(scanImage(await demoPhoto(1), thresholds)).rejects.toThrow(RangeError);
  });

  it('rejects an undecodable input', async () => {
    await expect(scanImage(Buffer.from('GIF89a but nothing else'))).rejects.toMatchObject({ reason: 'undecodable_input' });
  });
});

describe('scanImage on an animated GIF', () => {
  it('scans beyond the first frame: a flagged last frame flags the GIF', async () => {
    const gif = await animatedGif(5, 4);

    const firstFrameOnly = await classifyImage(gif);
    const result = await scanImage(gif, SEXY_ONLY);

    expect(firstFrameOnly.scores.Sexy).toBeLessThan(SEXY_ONLY.sexy);
    expect(result.verdict).toBe('flagged');
    expect(result.reason).toMatch(/^frame 5 of 5: Sexy /);
    expect(result.scores.Sexy).toBeGreaterThan(SEXY_ONLY.sexy);
  });

  it('scans the middle frame', async () => {
    const result = await scanImage(await animatedGif(5, 2), SEXY_ONLY);

    expect(result.verdict).toBe('flagged');
    expect(result.reason).toMatch(/^frame 3 of 5: /);
  });

  it('samples the first, middle and last frames only', async () => {
    const result = await scanImage(await animatedGif(5, 1), SEXY_ONLY);

    expect(result.verdict).toBe('clean');
    expect(result.scores.Sexy).toBeLessThan(0.01);
  });

  it('passes a GIF of a demo photo with the default thresholds', async () => {
    expect((await scanImage(await animatedGif(5, 4))).verdict).toBe('clean');
  });
});

describe('scanFrames', () => {
  it('scans every frame it is given and flags on any flagged one', async () => {
    const result = await scanFrames(await jpegStills(3, 1), SEXY_ONLY);

    expect(result.verdict).toBe('flagged');
    expect(result.reason).toMatch(/^frame 2 of 3: Sexy /);
  });

  it('reports the frame closest to a threshold when all are clean', async () => {
    const stills = await jpegStills(3, 1);

    const result = await scanFrames(stills, { porn: 1, hentai: 1, sexy: 0.999 });

    expect(result.verdict).toBe('clean');
    expect(result.scores).toEqual((await classifyImage(stills[1] as Buffer)).scores);
  });

  it('rejects an empty list and an undecodable frame', async () => {
    await expect(scanFrames([])).rejects.toThrow(/no frames to scan/);
    await expect(scanFrames([...(await jpegStills(2, 0)), Buffer.from('broken')])).rejects.toMatchObject({ reason: 'undecodable_input' });
  });
});
