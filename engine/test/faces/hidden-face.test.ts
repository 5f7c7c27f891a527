import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectFaces, detectHiddenFaces, type Face } from '../../src/faces/detect-faces';
import { handZoom } from '../fixtures/hand-zoom';
import { demoPhoto } from './fixtures';

/** Whether a face's box middle lies within a quarter of `box`'s width of its middle. */
const at = (face: Face, box: { x: number; y: number; width: number; height: number }) =>
  Math.hypot(face.box.x + face.box.width / 2 - (box.x + box.width / 2), face.box.y + face.box.height / 2 - (box.y + box.height / 2)) < box.width / 2;

describe('faces half hidden from the detector', () => {
  it('are found only when asked for, marked hidden, beside the faces found as before', async () => {
    const { frames, boxes } = await handZoom([0, 15, 29]);
    for (const [i, frame] of frames.entries()) {
      const plain = await detectFaces(frame);
      const withHidden = await detectFaces(frame, { hidden: true });

      expect(plain.some((face) => at(face, boxes[i]!))).toBe(false);
      const hers = withHidden.filter((face) => at(face, boxes[i]!));
      expect(hers).toHaveLength(1);
      expect(hers[0]!.hidden).toBe(true);
      // Every face found without the lower floor is found as it was, and none of them is marked.
      expect(withHidden.filter((face) => !face.hidden).map((face) => face.box)).toEqual(plain.map((face) => face.box));
    }
  });

  it('are found besides the faces already seen without looking for those again, with descriptors when asked', async () => {
    const { frames, boxes } = await handZoom([15]);
    const frame = frames[0]!;
    const seen = await detectFaces(frame);
    const withHidden = await detectFaces(frame, { hidden: true, descriptors: true });

    const added = await detectHiddenFaces(frame, seen, { descriptors: true });

    expect(added).toHaveLength(1);
    expect(at(added[0]!, boxes[0]!)).toBe(true);
    expect(added[0]!.hidden).toBe(true);
    expect(added[0]!.descriptor).not.toBeNull();
    expect(added.map((face) => face.box)).toEqual(withHidden.filter((face) => face.hidden).map((face) => face.box));
    // A face seen already is not added again, however the detector scores it.
    expect(await detectHiddenFaces(frame, [...seen, ...added])).toEqual([]);
  });

  it('are not found on the demo photos', async () => {
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const { data, info } = await sharp(await demoPhoto(n)).resize({ width: 960 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const image = { rgb: new Uint8Array(data), width: info.width, height: info.height };

      expect((await detectFaces(image, { hidden: true })).filter((face) => face.hidden), `photo ${n}`).toEqual([]);
    }
  });
});
