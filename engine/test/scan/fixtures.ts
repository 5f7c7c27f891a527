import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import sharp from 'sharp';

const require = createRequire(import.meta.url);

/** One of face-api's six demo photos: clothed people at parties, 1920 px wide JPEGs. */
export function demoPhoto(n: 1 | 2 | 3 | 4 | 5 | 6): Promise<Buffer> {
  return readFile(require.resolve(`@vladmandic/face-api/demo/sample${n}.jpg`));
}

export const DEMO_PHOTOS = [1, 2, 3, 4, 5, 6] as const;

/**
 * A policy that flags on Sexy alone, so that a clothed party photo (demo photo 2 scores Sexy
 * about 0.95) serves as a positive example and plain grey frames (Sexy below 0.01) as negatives.
 */
export const SEXY_ONLY = { porn: 1, hentai: 1, sexy: 0.5 };

const WIDTH = 480;
const HEIGHT = 320;

/** Raw RGB frames of the GIF: demo photo 2 where `photoAt` says, distinct greys elsewhere. */
async function gifFrames(count: number, photoAt: number): Promise<Buffer[]> {
  const photo = await sharp(await demoPhoto(2)).resize(WIDTH, HEIGHT, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  // Each grey differs, or the GIF encoder merges identical frames into one.
  return Array.from({ length: count }, (_, i) => (i === photoAt ? photo : Buffer.alloc(WIDTH * HEIGHT * 3, 60 + i * 30)));
}

/** An animated GIF of `count` frames, demo photo 2 at index `photoAt`, grey frames around it. */
export async function animatedGif(count: number, photoAt: number): Promise<Buffer> {
  const frames = await gifFrames(count, photoAt);
  return sharp(Buffer.concat(frames), { raw: { width: WIDTH, height: HEIGHT * count, channels: 3, pageHeight: HEIGHT } })
    .gif({ delay: 100 })
    .toBuffer();
}

/**
 * JPEG stills as a caller extracting video frames would hand them: demo photo 2 as shipped at
 * index `photoAt`, distinct grey pictures elsewhere. The photo keeps its full size because small,
 * smooth JPEG copies lose most of their Sexy score.
 */
export async function jpegStills(count: number, photoAt: number): Promise<Buffer[]> {
  const photo = await demoPhoto(2);
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      i === photoAt
        ? photo
        : sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 60 + i * 30, g: 60 + i * 30, b: 60 + i * 30 } } })
            .jpeg()
            .toBuffer(),
    ),
  );
}
