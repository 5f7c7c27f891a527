import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/faces/decode-image';
import { describeFaces } from '../../src/faces/describe-faces';
import { detectFaces, MESH_POINTS } from '../../src/faces/detect-faces';
import { EngineError } from '../../src/faces/engine-error';
import { faceDistance } from '../../src/faces/face-distance';
import { MIN_FACE_SIZE } from '../../src/faces/face-order';
import { loadHuman } from '../../src/faces/human';
import { demoPhoto } from './fixtures';

beforeAll(async () => {
  await loadHuman();
});

const centreX = (box: { x: number; width: number }) => box.x + box.width / 2;

describe('face detection', () => {
  it('finds the three faces of demo photo 1, left to right, with boxes around each face', async () => {
    const result = await describeFaces(await demoPhoto(1));
    expect(result).toMatchObject({ width: 1920, height: 1280 });
    expect(result.faces.map((face) => face.index)).toEqual([0, 1, 2]);
    const centres = result.faces.map((face) => centreX(face.box));
    expect(centres).toEqual([...centres].sort((a, b) => a - b));
    // Faces found by hand on the photo: left at x ~ 500, middle ~ 940, right ~ 1570.
    expect(centres.map((x) => Math.round(x / 100))).toEqual([5, 9, 16]);
    for (const { box } of result.faces) {
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(MIN_FACE_SIZE);
      expect(box.width).toBeGreaterThan(150);
      expect(box.width).toBeLessThan(400);
      expect(box.x + box.width).toBeLessThanOrEqual(1920);
      expect(box.y + box.height).toBeLessThanOrEqual(1280);
    }
  });

  it('gives each face a 468-point mesh inside its box and, on request, an identity descriptor', async () => {
    const faces = await detectFaces(await decodeImage(await demoPhoto(4)), { descriptors: true });
    expect(faces).toHaveLength(4);
    for (const face of faces) {
      expect(face.mesh).toHaveLength(MESH_POINTS * 2);
      for (let i = 0; i < face.mesh.length; i += 2) {
        expect(face.mesh[i]).toBeGreaterThanOrEqual(face.box.x - 1);
        expect(face.mesh[i]).toBeLessThanOrEqual(face.box.x + face.box.width);
      }
      expect(face.descriptor).toHaveLength(1024);
    }
    // Four different people: every face is its own nearest face.
    expect(faceDistance(faces[0]!.descriptor!, faces[0]!.descriptor!)).toBe(0);
    expect(faceDistance(faces[0]!.descriptor!, faces[1]!.descriptor!)).toBeGreaterThan(0);
  });

  it('gives each mesh point a depth in pixels, the nose tip nearer the camera than the face outline', async () => {
    const faces = await detectFaces(await decodeImage(await demoPhoto(1)));
    const [NOSE_TIP, CHIN, FOREHEAD] = [1, 152, 10];
    for (const face of faces) {
      expect(face.depth).toHaveLength(MESH_POINTS);
      const height = Math.hypot(face.mesh[CHIN * 2]! - face.mesh[FOREHEAD * 2]!, face.mesh[CHIN * 2 + 1]! - face.mesh[FOREHEAD * 2 + 1]!);
      // The nose stands out of a face by roughly a fifth to a half of its height (forehead to chin).
      const [chin, forehead] = [face.depth[CHIN]!, face.depth[FOREHEAD]!];
      const nose = face.depth[NOSE_TIP]!;
      expect(Math.min(chin, forehead) - nose).toBeGreaterThan(0.05 * height);
      expect(Math.max(...face.depth) - nose).toBeGreaterThan(0.2 * height);
      expect(Math.max(...face.depth) - nose).toBeLessThan(1 * height);
    }
  });

  it('reports boxes in the image as displayed when the file carries an EXIF rotation', async () => {
    const upright = await describeFaces(await demoPhoto(1));
    // Stored sideways (rotated 90° anticlockwise) with orientation 6, which viewers undo.
    const sideways = await sharp(await demoPhoto(1)).rotate(-90).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const displayed = await describeFaces(sideways);
    expect(displayed).toMatchObject({ width: 1920, height: 1280 });
    expect(displayed.faces.map((face) => Math.round(centreX(face.box) / 100))).toEqual(upright.faces.map((face) => Math.round(centreX(face.box) / 100)));
  });

  it('finds no face in a picture without one', async () => {
    const gradient = Buffer.alloc(640 * 480 * 3);
    for (let i = 0; i < gradient.length; i++) gradient[i] = (i * 7) % 256;
    const image = await sharp(gradient, { raw: { width: 640, height: 480, channels: 3 } }).png().toBuffer();
    expect(await describeFaces(image)).toEqual({ width: 640, height: 480, faces: [] });
  });

  it('refuses bytes that are not an image', async () => {
    const error = await describeFaces(Buffer.from('definitely not a picture')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ reason: 'undecodable_input' });
  });

  it('refuses an image format it cannot write back', async () => {
    const gif = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#888' } }).gif().toBuffer();
    await expect(describeFaces(gif)).rejects.toMatchObject({ reason: 'unsupported_format', message: expect.stringContaining('gif') });
  });
});
