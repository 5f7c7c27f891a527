import type { DetectedFace } from '@doppel/contract';
import { videoStills } from '@doppel/worker';
import sharp, { type Sharp } from 'sharp';
import type { StoredMedia } from './stored-inputs';

const THUMBNAIL_PX = 640;

/** A still of the media (a video's frame at 10%), as the pixels a viewer sees (EXIF applied). */
async function still(media: StoredMedia, bytes: Buffer): Promise<Sharp> {
  const source = media.mimeType.startsWith('video/') ? (await videoStills(bytes, [0.1]))[0]! : bytes;
  return sharp(source, { animated: false }).rotate();
}

/** A small WebP of stored media: the browser never loads the caller's URLs, only these. */
export async function makeThumbnail(media: StoredMedia, bytes: Buffer): Promise<Buffer> {
  return (await still(media, bytes)).resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
}

/** The thumbnail with each detected face outlined and numbered by its index. */
export async function makeFaceThumbnail(media: StoredMedia, bytes: Buffer, faces: DetectedFace[]): Promise<Buffer> {
  const image = await (await still(media, bytes)).png().toBuffer({ resolveWithObject: true });
  const { width, height } = image.info;
  const stroke = Math.max(2, Math.round(Math.max(width, height) / 200));
  const font = stroke * 7;
  const boxes = faces
    .map(({ index, bounding_box: b }) => {
      const label = `<text x="${b.x + stroke}" y="${Math.max(font, b.y - stroke)}" font-size="${font}" font-family="sans-serif" font-weight="700" fill="#22d3ee" stroke="#0f172a" stroke-width="${stroke / 2}" paint-order="stroke">${index}</text>`;
      return `<rect x="${b.x}" y="${b.y}" width="${b.width}" height="${b.height}" fill="none" stroke="#22d3ee" stroke-width="${stroke}" rx="${stroke}"/>${label}`;
    })
    .join('');
  const overlay = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${boxes}</svg>`);
  // Two passes: sharp resizes before it composites, whatever the order of the calls.
  const outlined = await sharp(image.data).composite([{ input: overlay }]).png().toBuffer();
  return sharp(outlined).resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
}
