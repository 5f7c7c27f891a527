import sharp from 'sharp';
import { EngineError } from './engine-error';

/** Still-image formats the engine reads and writes back unchanged. */
export const IMAGE_FORMATS = ['jpeg', 'png', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Larger inputs are refused before decoding: 50 megapixels of RGB is already 150 MB. */
export const MAX_INPUT_PIXELS = 50_000_000;

/** Upright RGB pixels, 3 bytes per pixel, row-major: what detection and swapping work on. */
export interface RgbImage {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** An uploaded still image, decoded once and reused for detection, swapping and re-encoding. */
export interface DecodedImage extends RgbImage {
  format: ImageFormat;
  /** Transparency (1 byte per pixel) when the input had it; re-attached on encoding. */
  alpha: Uint8Array | null;
}

function isImageFormat(format: string | undefined): format is ImageFormat {
  return (IMAGE_FORMATS as readonly (string | undefined)[]).includes(format);
}

/**
 * Decodes a JPEG, PNG or WebP (first frame only) into upright RGB: the EXIF orientation is
 * applied, so pixel coordinates are those of the image as viewers display it.
 */
export async function decodeImage(bytes: Buffer): Promise<DecodedImage> {
  let format: string | undefined;
  try {
    ({ format } = await sharp(bytes).metadata());
  } catch (error) {
    throw new EngineError('undecodable_input', `cannot decode image: ${describe(error)}`, { cause: error });
  }
  if (!isImageFormat(format)) {
    throw new EngineError('unsupported_format', `unsupported image format ${format ?? 'unknown'}: use JPEG, PNG or WebP`);
  }
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (info.channels === 3) return { rgb: pixels, width: info.width, height: info.height, format, alpha: null };
    return { ...splitAlpha(pixels, info.width * info.height), width: info.width, height: info.height, format };
  } catch (error) {
    if (/pixel limit/i.test(describe(error))) {
      throw new EngineError('image_too_large', `image is too large: at most ${MAX_INPUT_PIXELS / 1e6} megapixels`, { cause: error });
    }
    throw new EngineError('undecodable_input', `cannot decode image: ${describe(error)}`, { cause: error });
  }
}

function splitAlpha(rgba: Uint8Array, pixels: number): { rgb: Uint8Array; alpha: Uint8Array } {
  const rgb = new Uint8Array(pixels * 3);
  const alpha = new Uint8Array(pixels);
  for (let i = 0; i < pixels; i++) {
    rgb[i * 3] = rgba[i * 4]!;
    rgb[i * 3 + 1] = rgba[i * 4 + 1]!;
    rgb[i * 3 + 2] = rgba[i * 4 + 2]!;
    alpha[i] = rgba[i * 4 + 3]!;
  }
  return { rgb, alpha };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
