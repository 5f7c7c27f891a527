import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { swapGif } from '../../src/animation/swap-gif';
import { gifFrameAt } from '../../src/animation/gif-frames';
import { probeMedia } from '../../src/animation/probe-media';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { faceDistance } from '../../src/faces/face-distance';
import { largestIndex } from '../../src/faces/face-order';
import { loadHuman } from '../../src/faces/human';
import { demoPhoto, faceOnFrame, panGif, personAt, type Pan, type Person } from '../fixtures/pan-clip';

// A pan from people A and B to B and C: A leaves on the left half-way, C enters on the right.
const PAN: Pan = { width: 480, height: 300, frames: 10, fromX: 150, toX: 420, y: 140, zoom: 1.1 };
const DELAYS = [100, 80, 120, 100, 60, 100, 100, 140, 100, 200];
const LOOP = 3;

let gif: Buffer;
let source: Face;

beforeAll(async () => {
  await loadHuman();
  gif = await panGif(PAN, DELAYS, LOOP);
  const photo = await sharp(await demoPhoto(2)).raw().toBuffer({ resolveWithObject: true });
  const faces = await detectFaces({ rgb: photo.data, width: photo.info.width, height: photo.info.height }, { descriptors: true });
  source = faces[largestIndex(faces.map((face) => face.box))]!;
});

async function gifFrames(bytes: Buffer): Promise<Face[][]> {
  const { data, info } = await sharp(bytes, { animated: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const frameHeight = info.pageHeight ?? info.height;
  const frames: Face[][] = [];
  const size = info.width * frameHeight * 3;
  for (let offset = 0; offset < data.length; offset += size) {
    frames.push(await detectFaces({ rgb: data.subarray(offset, offset + size), width: info.width, height: frameHeight }, { descriptors: true }));
  }
  return frames;
}

const centreX = (face: Face) => face.box.x + face.box.width / 2;

async function rawFrames(bytes: Buffer): Promise<Buffer[]> {
  const { data } = await sharp(bytes, { animated: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const size = PAN.width * PAN.height * 3;
  return Array.from({ length: data.length / size }, (_, i) => data.subarray(i * size, (i + 1) * size));
}

type Span = ReturnType<typeof faceOnFrame>;

/** The share of a face's width inside the frame (the pan moves sideways only). */
const visibleShare = (face: Span) => Math.max(0, Math.min(PAN.width, face.x + face.width) - Math.max(0, face.x)) / face.width;

/** Mean change per channel inside the face's visible part, beyond the mean change elsewhere (GIF re-quantisation). */
function changeInside(before: Buffer, after: Buffer, face: Span): number {
  const [left, right] = [Math.max(0, Math.round(face.x)), Math.min(PAN.width, Math.round(face.x + face.width))];
  const [top, bottom] = [Math.max(0, Math.round(face.y)), Math.min(PAN.height, Math.round(face.y + face.height))];
  let inside = 0;
  let outside = 0;
  for (let y = 0; y < PAN.height; y++) {
    for (let x = 0; x < PAN.width; x++) {
      const p = (y * PAN.width + x) * 3;
      const change = Math.abs(before[p]! - after[p]!) + Math.abs(before[p + 1]! - after[p + 1]!) + Math.abs(before[p + 2]! - after[p + 2]!);
      if (x >= left && x < right && y >= top && y < bottom) inside += change;
      else outside += change;
    }
  }
  const area = (right - left) * (bottom - top);
  return inside / (3 * area) - outside / (3 * (PAN.width * PAN.height - area));
}

/** For every face of the input, who it is, and how its counterpart in the output compares to the original and to the source. */
async function compare(input: Buffer, output: Buffer) {
  const [before, after] = [await gifFrames(input), await gifFrames(output)];
  return before.flatMap((faces, frame) =>
    faces.map((original) => {
      const swapped = after[frame]!.reduce((best, face) => (Math.abs(centreX(face) - centreX(original)) < Math.abs(centreX(best) - centreX(original)) ? face : best));
      return {
        frame,
        person: personAt(PAN, frame, centreX(original)),
        toOriginal: faceDistance(swapped.descriptor!, original.descriptor!),
        toSource: faceDistance(swapped.descriptor!, source.descriptor!),
      };
    }),
  );
}

describe('GIF swap', () => {
  it('keeps the frame count, frame size, every delay and the loop count, reporting progress up to 100', async () => {
    const progress: number[] = [];
    const result = await swapGif({ target: gif, source: await demoPhoto(2), onProgress: (percent) => progress.push(percent) });
    const meta = await sharp(result.image, { animated: true }).metadata();
    expect({ format: meta.format, pages: meta.pages, width: meta.width, pageHeight: meta.pageHeight, delay: meta.delay, loop: meta.loop }).toEqual({
      format: 'gif',
      pages: PAN.frames,
      width: PAN.width,
      pageHeight: PAN.height,
      delay: DELAYS,
      loop: LOOP,
    });
    expect(result).toMatchObject({ width: PAN.width, height: PAN.height, frames: PAN.frames });
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  // A swapped face must move clearly away from the person it was (descriptor distance above 4),
  // while every other face stays within 3 of itself (all that GIF re-encoding changes). At these
  // ~100 px faces the swapped descriptor does not yet come nearer the source than the original
  // (see docs/video.md), so that stronger check belongs to the image engine's larger tests.
  it.each([
    { followed: 'B' as Person, targetFaceIndex: 1, referenceFrameTimeSeconds: 0 },
    // On the frame at 0.9 s (the 8th), B is the leftmost face: index 0 there means B, not A.
    { followed: 'B' as Person, targetFaceIndex: 0, referenceFrameTimeSeconds: 0.9 },
    // A leaves the picture half-way: the frames after pass through, B is not taken for A.
    { followed: 'A' as Person, targetFaceIndex: 0, referenceFrameTimeSeconds: 0 },
  ])('swaps $followed (face $targetFaceIndex at $referenceFrameTimeSeconds s) on every frame it is on, and nobody else', async (test) => {
    const result = await swapGif({ target: gif, source: await demoPhoto(2), targetFaceIndex: test.targetFaceIndex, referenceFrameTimeSeconds: test.referenceFrameTimeSeconds });
    const faces = await compare(gif, result.image);
    const followed = faces.filter((face) => face.person === test.followed);
    const others = faces.filter((face) => face.person !== test.followed);
    expect(followed.length).toBeGreaterThanOrEqual(test.followed === 'A' ? 3 : PAN.frames);
    expect(others.length).toBeGreaterThanOrEqual(test.followed === 'A' ? PAN.frames : 4);
    for (const face of followed) expect(face, `${face.person} on frame ${face.frame}`).toSatisfy(({ toOriginal }: typeof face) => toOriginal > 4);
    for (const face of others) expect(face, `${face.person} on frame ${face.frame}`).toSatisfy(({ toSource, toOriginal }: typeof face) => toOriginal < 3 && toOriginal < toSource);
  });

  // A leaves through the left edge half-way: the frames where their face is cut by the edge are
  // the ones an unpadded detector missed, switching the swap off while the face was still visible.
  it('swaps A on every frame where at least half of their face is in view, cut by the edge or not', async () => {
    const result = await swapGif({ target: gif, source: await demoPhoto(2), targetFaceIndex: 0 });
    const [before, after] = [await rawFrames(gif), await rawFrames(result.image)];
    const inView = before.map((_, i) => faceOnFrame(PAN, i, 'A')).filter((face) => visibleShare(face) >= 0.5);
    expect(inView.length).toBeGreaterThanOrEqual(4);
    expect(inView.some((face) => visibleShare(face) < 1)).toBe(true);
    before.forEach((frame, i) => {
      const face = faceOnFrame(PAN, i, 'A');
      if (visibleShare(face) >= 0.5) expect(changeInside(frame, after[i]!, face), `frame ${i}`).toBeGreaterThan(3);
    });
  });

  it('refuses a GIF over the caps before any frame is decoded, and probeMedia measures it', async () => {
    await expect(swapGif({ target: gif, source: await demoPhoto(2), caps: { maxFrames: 5, maxWidth: 1024, maxHeight: 1024, maxTotalPixels: 1e8 } })).rejects.toMatchObject({
      reason: 'media_too_large',
      message: 'GIF is too large: 10 frames (at most 5)',
    });
    const wide = await sharp({ create: { width: 1100, height: 40, channels: 3, background: '#345' } }).gif().toBuffer();
    await expect(swapGif({ target: wide, source: await demoPhoto(2) })).rejects.toMatchObject({
      reason: 'media_too_large',
      message: 'GIF is too large: 1100x40 px frames (at most 1024x1024)',
    });
    await expect(probeMedia(wide, { caps: true })).rejects.toMatchObject({ reason: 'media_too_large' });
    expect(await probeMedia(gif)).toEqual({ kind: 'gif', width: PAN.width, height: PAN.height, frames: PAN.frames, durationSeconds: 1.1, loop: LOOP });
  });

  it('measures frames of 0 or 10 ms as browsers show them, 100 ms, and picks frames by that timing', async () => {
    const frames = 4;
    // Each frame its own grey, or the encoder would merge identical frames into one.
    const pixels = Buffer.concat(Array.from({ length: frames }, (_, i) => Buffer.alloc(32 * 24 * 3, 40 + 60 * i)));
    const fast = await sharp(pixels, { raw: { width: 32, height: 24 * frames, channels: 3, pageHeight: 24 } }).gif({ delay: [0, 10, 0, 250] }).toBuffer();
    expect((await sharp(fast, { animated: true }).metadata()).delay).toEqual([0, 10, 0, 250]);
    expect(await probeMedia(fast)).toMatchObject({ kind: 'gif', frames, durationSeconds: 0.55 });
    expect(gifFrameAt([0, 10, 0, 250], 0.15)).toBe(1);
    expect(gifFrameAt([0, 10, 0, 250], 0.31)).toBe(3);
  });

  it('names the reference frame and its face count when the index is out of range', async () => {
    await expect(swapGif({ target: gif, source: await demoPhoto(2), targetFaceIndex: 4, referenceFrameTimeSeconds: 0.05 })).rejects.toMatchObject({
      reason: 'face_index_out_of_range',
      message: 'face index 4 is out of range: the GIF frame at 0.05 s (frame 0) has 2 faces (0-1)',
    });
  });

  describe('without a reference time, on a GIF opening on blank frames', () => {
    // Two blank frames (0.1 s each), then four frames of the pan: A and B from 0.2 s on.
    const LEAD: Pan = { ...PAN, frames: 4, lead: 2 };
    let opening: Buffer;
    beforeAll(async () => {
      opening = await panGif(LEAD, [100, 100, 100, 100, 100, 100], 0);
    });

    it('picks the person on the first frame with a face, and names that frame', async () => {
      await expect(swapGif({ target: opening, source: await demoPhoto(2), targetFaceIndex: 4 })).rejects.toMatchObject({
        reason: 'face_index_out_of_range',
        message: 'face index 4 is out of range: the GIF frame at 0.2 s (frame 2, the first with a face) has 2 faces (0-1)',
      });
      const result = await swapGif({ target: opening, source: await demoPhoto(2), targetFaceIndex: 1 });
      const [before, after] = [await rawFrames(opening), await rawFrames(result.image)];
      for (const i of [0, 1]) expect(changeInside(before[i]!, after[i]!, { x: 0, y: 0, width: PAN.width - 1, height: PAN.height - 1 }), `blank frame ${i}`).toBeLessThan(1);
      for (let i = 0; i < LEAD.frames; i++) {
        expect(changeInside(before[i + 2]!, after[i + 2]!, faceOnFrame(LEAD, i, 'B')), `B on frame ${i + 2}`).toBeGreaterThan(3);
        expect(changeInside(before[i + 2]!, after[i + 2]!, faceOnFrame(LEAD, i, 'A')), `A on frame ${i + 2}`).toBeLessThan(3);
      }
    });

    it('refuses the blank frame when it is named, and a GIF with no face at all', async () => {
      await expect(swapGif({ target: opening, source: await demoPhoto(2), referenceFrameTimeSeconds: 0 })).rejects.toMatchObject({
        reason: 'no_face_in_target',
        message: 'no face found on the GIF frame at 0 s (frame 0)',
      });
      const blank = await panGif({ ...PAN, frames: 0, lead: 3 }, [100, 100, 100], 0);
      await expect(swapGif({ target: blank, source: await demoPhoto(2) })).rejects.toMatchObject({
        reason: 'no_face_in_target',
        message: "no face found on any of the GIF's 3 frames",
      });
    });
  });

  it('refuses a target that is not a GIF', async () => {
    await expect(swapGif({ target: await demoPhoto(1), source: await demoPhoto(2) })).rejects.toMatchObject({ reason: 'unsupported_format' });
  });
});
