import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { RgbImage } from '../../src/faces/decode-image';

const require = createRequire(import.meta.url);
const DEMO_DIR = path.join(path.dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');

/** One of face-api's six demo group photos (1920 px wide JPEGs, 3-5 faces each). */
export function demoPhoto(n: number): Promise<Buffer> {
  return readFile(path.join(DEMO_DIR, `sample${n}.jpg`));
}

/** A demo photo re-encoded at another width and format, to keep tests quick. */
export async function demoPhotoAs(n: number, width: number, format: 'jpeg' | 'png' | 'webp'): Promise<Buffer> {
  return sharp(await demoPhoto(n)).resize({ width }).toFormat(format).toBuffer();
}

/** A part of a photo, in its pixels. */
export interface PhotoWindow {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A camera's move over a photo: a `width` x `height` frame whose window goes from `from` to `to` (top-left corner and zoom) over `frames` frames. */
export interface CameraMove {
  width: number;
  height: number;
  frames: number;
  from: { x: number; y: number; zoom: number };
  to: { x: number; y: number; zoom: number };
}

/** The part of the photo frame `index` of `move` shows. */
export function moveWindow(move: CameraMove, index: number): PhotoWindow {
  const t = index / (move.frames - 1);
  const lerp = (a: number, b: number) => a + (b - a) * t;
  const zoom = lerp(move.from.zoom, move.to.zoom);
  return { left: Math.round(lerp(move.from.x, move.to.x)), top: Math.round(lerp(move.from.y, move.to.y)), width: Math.round(move.width / zoom), height: Math.round(move.height / zoom) };
}

/**
 * A camera moving over demo photo `n` resized to `photoWidth`: one `width` x `height` RGB frame per
 * window (each cut and scaled to the frame), and the resized photo itself.
 */
export async function cameraFrames(n: number, photoWidth: number, windows: PhotoWindow[], width: number, height: number): Promise<{ frames: RgbImage[]; photo: RgbImage }> {
  const { data, info } = await sharp(await demoPhoto(n)).resize({ width: photoWidth }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const photo = sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } });
  const frames: RgbImage[] = [];
  for (const window of windows) frames.push({ rgb: new Uint8Array(await photo.clone().extract(window).resize(width, height).raw().toBuffer()), width, height });
  return { frames, photo: { rgb: new Uint8Array(data), width: info.width, height: info.height } };
}
