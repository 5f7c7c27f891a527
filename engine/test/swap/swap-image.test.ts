import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { nearestFace } from '../../src/animation/face-motion';
import { decodeImage, type DecodedImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { EngineError } from '../../src/faces/engine-error';
import { faceDistance } from '../../src/faces/face-distance';
import { largestIndex, type Box } from '../../src/faces/face-order';
import { loadHuman } from '../../src/faces/human';
import { meshTopology } from '../../src/faces/mesh-topology';
import { extendOutline } from '../../src/swap/extend-outline';
import { toLab } from '../../src/swap/lab-colour';
import { edgeBlur } from '../../src/swap/match-sharpness';
import { paintTriangles } from '../../src/swap/rasterise-mesh';
import { toBox } from '../../src/swap/warp-face';
import { swapImage } from '../../src/swap/swap-image';
import { demoPhoto, demoPhotoAs } from '../faces/fixtures';
import { deltaE, faceCentreLab, skinRingLab } from '../quality/tone';

beforeAll(async () => {
  await loadHuman();
});

const decodeAndDetect = async (bytes: Buffer) => {
  const image = await decodeImage(bytes);
  return { image, faces: await detectFaces(image, { descriptors: true }) };
};

/** Count of pixels that differ outside every one of `boxes`. */
function changedOutside(before: DecodedImage, after: DecodedImage, boxes: Box[]): number {
  let changed = 0;
  for (let y = 0; y < before.height; y++) {
    for (let x = 0; x < before.width; x++) {
      if (boxes.some((b) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height)) continue;
      const p = (y * before.width + x) * 3;
      if (before.rgb[p] !== after.rgb[p] || before.rgb[p + 1] !== after.rgb[p + 1] || before.rgb[p + 2] !== after.rgb[p + 2]) changed++;
    }
  }
  return changed;
}

/** The (a*, b*) of the pixels in `box`: all of them, or only those that differ from `unlike` by more than 8 levels in a channel. */
function boxChroma(image: DecodedImage, box: Box, unlike?: DecodedImage): [number, number][] {
  const out: [number, number][] = [];
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) {
      const p = (y * image.width + x) * 3;
      if (unlike && [0, 1, 2].every((k) => Math.abs(image.rgb[p + k]! - unlike.rgb[p + k]!) <= 8)) continue;
      const lab = toLab(image.rgb.subarray(p, p + 3));
      out.push([lab[1]!, lab[2]!]);
    }
  }
  return out;
}

/** A demo photo and its largest face (with its descriptor) as the engine finds it. */
interface Analysed {
  bytes: Buffer;
  image: DecodedImage;
  largest: Face;
}

const PHOTOS = [1, 2, 3, 4, 5, 6];
const analysed = new Map<number, Analysed>();

beforeAll(async () => {
  for (const n of PHOTOS) {
    const bytes = await demoPhoto(n);
    const { image, faces } = await decodeAndDetect(bytes);
    analysed.set(n, { bytes, image, largest: faces[largestIndex(faces.map((face) => face.box))]! });
  }
});

describe('image swap', () => {
  // Every ordered pair of the six demo photos, each represented by its largest face: the face an
  // image swap takes from the source and, without target_face_index, replaces in the target.
  const pairs = PHOTOS.flatMap((target) => PHOTOS.filter((source) => source !== target).map((source) => ({ target, source })));
  const toneShifts: number[] = [];

  it.each(pairs)('gives the largest face of photo $target the identity of photo $source, keeping its pose and skin tone', async ({ target, source }) => {
    const [to, from] = [analysed.get(target)!, analysed.get(source)!];
    const original = to.largest;

    const result = await swapImage({ target: to.bytes, mappings: [{ source: from.bytes }] });
    const after = await decodeAndDetect(result.image);
    const swapped = nearestFace(original, after.faces);
    if (!swapped) throw new Error('no face found where the swapped face should be');

    // Tone: the face centre keeps its colour, and stays close to the person's own skin around it
    // (within ΔE 8, or within 4 more than the original face was where its light differs).
    const centreBefore = faceCentreLab(to.image, original.box);
    const centreAfter = faceCentreLab(after.image, original.box);
    toneShifts.push(deltaE(centreBefore, centreAfter));
    expect(deltaE(centreBefore, centreAfter)).toBeLessThanOrEqual(8);
    const ownSkin = skinRingLab(to.image, original.box, centreBefore);
    if (ownSkin) expect(deltaE(centreAfter, ownSkin)).toBeLessThanOrEqual(Math.max(8, deltaE(centreBefore, ownSkin) + 4));

    const toSource = faceDistance(swapped.descriptor!, from.largest.descriptor!);
    const toOriginal = faceDistance(swapped.descriptor!, original.descriptor!);
    expect(toSource).toBeLessThan(toOriginal);

    let offset = 0;
    for (let i = 0; i < original.mesh.length; i += 2) offset += Math.hypot(swapped.mesh[i]! - original.mesh[i]!, swapped.mesh[i + 1]! - original.mesh[i + 1]!);
    expect(offset / (original.mesh.length / 2)).toBeLessThan(0.08 * Math.min(original.box.width, original.box.height));
  });

  it('shifts the face centre colour by ΔE 4 or less on the median pair', () => {
    expect(toneShifts).toHaveLength(pairs.length);
    expect([...toneShifts].sort((a, b) => a - b)[pairs.length >> 1]).toBeLessThanOrEqual(4);
  });

  it("changes no pixel outside the box of the swapped face's region", async () => {
    const target = await demoPhotoAs(6, 1024, 'png');
    const before = await decodeAndDetect(target);
    const result = await swapImage({ target, mappings: [{ source: await demoPhoto(4), targetFaceIndex: 1 }] });
    expect(result.format).toBe('png');
    const region = extendOutline(before.faces[1]!, before.image, await meshTopology()).box;
    expect(changedOutside(before.image, await decodeImage(result.image), [region])).toBe(0);
  });

  it('swaps only the faces a multi-face mapping names, each with its own source', async () => {
    const target = await demoPhotoAs(4, 1024, 'png');
    const before = await decodeAndDetect(target);
    expect(before.faces).toHaveLength(4);
    const topology = await meshTopology();
    const [one, three] = [1, 3].map((index) => extendOutline(before.faces[index]!, before.image, topology).box) as [Box, Box];
    const result = await swapImage({
      target,
      mappings: [
        { source: await demoPhoto(1), targetFaceIndex: 1 },
        { source: await demoPhoto(2), targetFaceIndex: 3, enableFaceEnhancer: true },
      ],
    });
    const after = await decodeImage(result.image);
    expect(changedOutside(before.image, after, [one, three])).toBe(0);
    const changedInside = (box: Box) => changedOutside(before.image, after, []) - changedOutside(before.image, after, [box]);
    expect(changedInside(one)).toBeGreaterThan(0);
    expect(changedInside(three)).toBeGreaterThan(0);
  });

  it.each(['jpeg', 'png', 'webp'] as const)('answers a %s target in the same format and size', async (format) => {
    const target = await demoPhotoAs(5, 800, format);
    const progress: number[] = [];
    const result = await swapImage({ target, mappings: [{ source: await demoPhotoAs(6, 800, 'jpeg') }], onProgress: (pct) => progress.push(pct) });
    const meta = await sharp(result.image).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format, width: 800, height: Math.round((1398 * 800) / 1920) });
    expect(result).toMatchObject({ format, width: 800, height: meta.height });
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it.each([
    { kind: 'black-and-white', tint: null },
    { kind: 'sepia', tint: '#a0703c' },
  ])("gives a $kind photo a face in the photo's own colour, not the source's make-up", async ({ tint }) => {
    const grey = sharp(await demoPhotoAs(2, 800, 'jpeg')).greyscale();
    const target = await (tint ? grey.tint(tint) : grey).jpeg().toBuffer();
    const before = await decodeAndDetect(target);
    const box = before.faces[largestIndex(before.faces.map((face) => face.box))]!.box;
    // Photo 1's face wears blue eye make-up and purple lipstick.
    const after = await decodeImage((await swapImage({ target, mappings: [{ source: await demoPhoto(1) }] })).image);

    const hueBefore = boxChroma(before.image, box);
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1]!;
    const [a, b] = [median(hueBefore.map(([x]) => x)), median(hueBefore.map(([, y]) => y))];
    const changed = boxChroma(after, box, before.image);
    expect(changed.length).toBeGreaterThan(0.2 * box.width * box.height);
    const offHue = changed.map(([x, y]) => Math.hypot(x - a, y - b)).sort((x, y) => x - y);
    expect(offHue[Math.floor(0.99 * offHue.length)]).toBeLessThan(4);
  });

  it('gives a blurred photo a face about as soft as the one it replaces, not as sharp as the source', async () => {
    const target = await sharp(await demoPhotoAs(6, 1200, 'jpeg')).blur(2.5).jpeg({ quality: 95 }).toBuffer();
    const before = await decodeAndDetect(target);
    const face = before.faces[largestIndex(before.faces.map((f) => f.box))]!;
    const after = await decodeImage((await swapImage({ target, mappings: [{ source: await demoPhoto(1) }] })).image);

    // The edges of the eyes, brows and lips, measured where the target's own were.
    const { box } = face;
    const topology = await meshTopology();
    const features = paintTriangles(toBox(face.mesh, box), topology.triangles, topology.features, box.width, box.height);
    const blurOf = (image: DecodedImage) => {
      const rgb = new Float32Array(box.width * box.height * 3);
      for (let y = 0; y < box.height; y++) rgb.set(image.rgb.subarray(((box.y + y) * image.width + box.x) * 3, ((box.y + y) * image.width + box.x + box.width) * 3), y * box.width * 3);
      return edgeBlur(rgb, features, box.width, box.height);
    };
    // Drawn as sharp as the source, its edges measured 0.64 of the target's.
    expect(blurOf(after)).toBeGreaterThan(0.8 * blurOf(before.image));
  });

  it('says how many faces the target has when the index is out of range', async () => {
    const error = await swapImage({ target: await demoPhotoAs(1, 800, 'jpeg'), mappings: [{ source: await demoPhotoAs(2, 800, 'jpeg'), targetFaceIndex: 5 }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ reason: 'face_index_out_of_range', message: 'target_face_index 5 is out of range: the target has 3 faces (0-2)' });
  });

  it('refuses a source or a target without a face', async () => {
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#7a9' } }).jpeg().toBuffer();
    const photo = await demoPhotoAs(1, 800, 'jpeg');
    await expect(swapImage({ target: photo, mappings: [{ source: blank }] })).rejects.toMatchObject({ reason: 'no_face_in_source' });
    await expect(swapImage({ target: blank, mappings: [{ source: photo }] })).rejects.toMatchObject({ reason: 'no_face_in_target', message: 'no face found in the target image' });
  });

  it('refuses an undecodable target', async () => {
    await expect(swapImage({ target: Buffer.from([0xff, 0xd8, 0xff, 0x00]), mappings: [{ source: await demoPhotoAs(2, 800, 'jpeg') }] })).rejects.toMatchObject({
      reason: 'undecodable_input',
    });
  });
});
