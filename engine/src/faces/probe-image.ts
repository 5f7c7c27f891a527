import sharp, { type Metadata } from 'sharp';
import { MAX_INPUT_PIXELS } from './decode-image';
import { EngineError } from './engine-error';

/** A still or animated image as its header describes it; nothing is decoded. */
export interface ImageProbe {
  width: number;
  /** Height of one frame (a GIF or animated WebP stacks its frames as pages). */
  frameHeight: number;
  frames: number;
}

/**
 * Reads an image's header and refuses, with `media_too_large`, a frame over the engine's pixel
 * limit: its size is known before any decode could allocate it (a 16383x16383 frame is 1 GiB).
 */
export async function probeImage(bytes: Buffer): Promise<ImageProbe> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes).metadata();
  } catch (error) {
    throw new EngineError('undecodable_input', 'cannot decode the image: it is damaged or incomplete', { cause: error });
  }
  const width = metadata.width ?? 0;
  const frameHeight = metadata.pageHeight ?? metadata.height ?? 0;
  if (width * frameHeight > MAX_INPUT_PIXELS) {
    throw new EngineError('media_too_large', `image is too large: ${width}x${frameHeight} px (at most ${MAX_INPUT_PIXELS / 1e6} megapixels)`);
  }
  return { width, frameHeight, frames: metadata.pages ?? 1 };
}
