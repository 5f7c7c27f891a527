import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from '../faces/decode-image';
import { videoStills } from '../video/stills';

/** Longest side of a thumbnail, in pixels: enough for a preview on a 2x screen. */
export const THUMBNAIL_SIZE = 320;

const VIDEO_KINDS = ['mp4', 'mov', 'webm'];

export interface ThumbnailBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Outlines over a picture of `width`x`height`, as an SVG sharp can composite. */
function boxesSvg(boxes: ThumbnailBox[], width: number, height: number, scale: number): Buffer {
  const stroke = Math.max(3, Math.round(Math.min(width, height) / 80));
  const rects = boxes
    .map((b) => `<rect x="${b.x * scale}" y="${b.y * scale}" width="${b.width * scale}" height="${b.height * scale}" fill="none" stroke="#22d3ee" stroke-width="${stroke}"/>`)
    .join('');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${rects}</svg>`);
}

/**
 * A small upright JPEG of an image's, GIF's (first frame) or video's (a still at a tenth of its
 * length) picture, kept when the input itself is deleted so that a task can still be shown.
 * `boxes` (in the input's upright pixels, as face detection reports them) are drawn on it.
 */
export async function makeThumbnail(bytes: Buffer, kind: string, options: { boxes?: ThumbnailBox[] } = {}): Promise<Buffer> {
  const picture = VIDEO_KINDS.includes(kind) ? (await videoStills(bytes, [0.1]))[0]! : bytes;
  const upright = await sharp(picture, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toBuffer({ resolveWithObject: true });
  let thumbnail = sharp(upright.data);
  if (options.boxes?.length) {
    // Boxes are in upright pixels: the width after the EXIF orientation is applied.
    const { autoOrient } = await sharp(picture).metadata();
    const scale = upright.info.width / autoOrient.width;
    thumbnail = thumbnail.composite([{ input: boxesSvg(options.boxes, upright.info.width, upright.info.height, scale) }]);
  }
  return thumbnail.jpeg({ quality: 80 }).toBuffer();
}
