import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

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
