import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from '../faces/decode-image';
import { EngineError } from '../faces/engine-error';
import { probeImage } from '../faces/probe-image';
import { MODEL_INPUT_SIZE } from './model';

/** The input could not be read as an image; the decoder's complaint stays in the cause. */
function undecodable(cause: unknown): EngineError {
  return new EngineError('undecodable_input', 'cannot decode the image: it is damaged or incomplete', { cause });
}

/**
 * Number of frames (pages) in an image: above 1 for animated GIF or WebP. A frame over the
 * engine's pixel limit is refused from the header, before anything is decoded.
 */
export async function countFrames(bytes: Buffer): Promise<number> {
  return (await probeImage(bytes)).frames;
}

/**
 * One frame as the model's input: 224x224 RGB bytes, row-major. The frame is turned upright by
 * its EXIF orientation and stretched to the square (as nsfwjs does) rather than cropped, so no
 * part of the picture escapes the scan. Transparency is flattened onto white, as viewers show it.
 *
 * Downscaling samples the nearest pixel, without JPEG shrink-on-load: that is how the model saw
 * images in training (Keras's loader) and in nsfwjs (a bilinear resize of the full-size image
 * with aligned corners). Smoothing filters change its answers: with lanczos3, three of the
 * face-api demo party photos score Porn 0.45-0.50 instead of 0.02-0.12.
 */
export async function decodeFrame(bytes: Buffer, frame = 0): Promise<Uint8Array> {
  try {
    // The limit again, per decode: frames of stills come here without passing countFrames.
    const { data, info } = await sharp(bytes, { page: frame, limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize(MODEL_INPUT_SIZE, MODEL_INPUT_SIZE, { fit: 'fill', kernel: 'nearest', fastShrinkOnLoad: false })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels after conversion, got ${info.channels}`);
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } catch (error) {
    throw undecodable(error);
  }
}
