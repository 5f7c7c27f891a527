import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from '../faces/decode-image';
import { videoStills } from '../video/stills';

/** Longest side of a thumbnail, in pixels: a preview on a 2x screen. */
export const THUMBNAIL_SIZE = 640;

const VIDEO_KINDS = ['mp4', 'mov', 'webm'];

/** A face box in the input's upright pixels (as face detection reports it), with its label. */
export interface ThumbnailBox {
  x: number;
  y: number;
  width: number;
  height: number;
  label?: string;
}

/** Outlined, labelled boxes over a picture of `width`x`height`, as an SVG sharp composites. */
function boxesSvg(boxes: ThumbnailBox[], width: number, height: number, scale: number): Buffer {
  const stroke = Math.max(3, Math.round(Math.max(width, height) / 200));
  const font = stroke * 6;
  const shapes = boxes
    .map((box) => {
      const [x, y, w, h] = [box.x * scale, box.y * scale, box.width * scale, box.height * scale];
      const label = box.label
        ? `<text x="${x + stroke}" y="${Math.max(font, y - stroke)}" font-size="${font}" font-family="sans-serif" font-weight="700" fill="#22d3ee" stroke="#0f172a" stroke-width="${stroke / 2}" paint-order="stroke">${box.label}</text>`
        : '';
      return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="#22d3ee" stroke-width="${stroke}" rx="${stroke}"/>${label}`;
    })
    .join('');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes}</svg>`);
}

/**
 * A small upright JPEG of an image's, GIF's (first frame) or video's (a still at a tenth of its
 * length) picture: the dashboard's previews, and what is kept of a task's inputs once they are
 * deleted. `boxes` are drawn on it, scaled to the thumbnail.
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
