import sharp from 'sharp';
import type { DecodedImage } from '../faces/decode-image';

/** JPEG and WebP quality of results: high enough that re-encoding adds no visible loss. */
const LOSSY_QUALITY = 92;

/**
 * Encodes pixels back to the format they came in. The pixels are already upright, so the result
 * carries no EXIF orientation; no other metadata (EXIF, GPS, ICC) is copied either. PNG is
 * lossless, so untouched pixels come out exactly as they went in.
 */
export async function encodeImage(image: DecodedImage): Promise<Buffer> {
  const pixels = image.alpha ? joinAlpha(image.rgb, image.alpha) : image.rgb;
  const encoder = sharp(pixels, { raw: { width: image.width, height: image.height, channels: image.alpha ? 4 : 3 } });
  switch (image.format) {
    case 'jpeg':
      return encoder.jpeg({ quality: LOSSY_QUALITY }).toBuffer();
    case 'png':
      return encoder.png().toBuffer();
    case 'webp':
      return encoder.webp({ quality: LOSSY_QUALITY }).toBuffer();
  }
}

function joinAlpha(rgb: Uint8Array, alpha: Uint8Array): Uint8Array {
  const rgba = new Uint8Array(alpha.length * 4);
  for (let i = 0; i < alpha.length; i++) {
    rgba[i * 4] = rgb[i * 3]!;
    rgba[i * 4 + 1] = rgb[i * 3 + 1]!;
    rgba[i * 4 + 2] = rgb[i * 3 + 2]!;
    rgba[i * 4 + 3] = alpha[i]!;
  }
  return rgba;
}
