import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CONTENT_CLASSES, classifyImage } from '../../src/scan/classify';
import { demoPhoto } from './fixtures';

describe('classifyImage', () => {
  it('gives a probability for each of the five classes, summing to 1', async () => {
    const { scores } = await classifyImage(await demoPhoto(1));

    expect(Object.keys(scores).sort()).toEqual([...CONTENT_CLASSES].sort());
    for (const score of Object.values(scores)) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
    expect(Object.values(scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
  });

  it('gives the same scores for the same bytes', async () => {
    const photo = await demoPhoto(3);

    const first = await classifyImage(photo);
    const second = await classifyImage(Buffer.from(photo));

    expect(second).toEqual(first);
  });

  it('tells a party photo from a plain grey picture', async () => {
    const grey = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#808080' } }).png().toBuffer();

    const party = (await classifyImage(await demoPhoto(2))).scores;
    const plain = (await classifyImage(grey)).scores;

    expect(party.Sexy).toBeGreaterThan(0.9);
    expect(plain.Sexy).toBeLessThan(0.01);
  });

  it('turns a photo upright by its EXIF orientation before classifying it', async () => {
    const upright = await sharp(await demoPhoto(2)).jpeg({ quality: 90 }).toBuffer();
    const sideways = await sharp(upright).rotate(270).jpeg({ quality: 90 }).toBuffer();
    // Orientation 6: the stored pixels are to be turned 90 degrees clockwise for display.
    const tagged = await sharp(sideways).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer();

    const reference = (await classifyImage(upright)).scores;
    const asDisplayed = (await classifyImage(tagged)).scores;
    const asStored = (await classifyImage(sideways)).scores;

    expect(Math.abs(asDisplayed.Sexy - reference.Sexy)).toBeLessThan(0.1);
    expect(Math.abs(asStored.Sexy - reference.Sexy)).toBeGreaterThan(0.5);
  });

  it.each([
    ['random text', Buffer.from('this is not an image')],
    ['an empty buffer', Buffer.alloc(0)],
  ])('rejects %s as undecodable_input', async (_, bytes) => {
    await expect(classifyImage(bytes)).rejects.toMatchObject({ name: 'EngineError', reason: 'undecodable_input', message: 'cannot decode the image: it is damaged or incomplete' });
  });

  it('rejects a truncated JPEG rather than scoring its partial picture', async () => {
    const photo = await demoPhoto(4);

    await expect(classifyImage(photo.subarray(0, photo.length / 2))).rejects.toMatchObject({
      reason: 'undecodable_input',
      cause: expect.objectContaining({ message: expect.stringMatching(/premature end/i) }),
    });
  });
});
