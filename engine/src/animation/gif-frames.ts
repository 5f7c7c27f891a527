import sharp, { type Metadata } from 'sharp';
import type { RgbImage } from '../faces/decode-image';
import { EngineError } from '../faces/engine-error';

/** An animated GIF decoded to RGBA, all frames stacked top to bottom, with its timing. */
export interface DecodedGif {
  rgba: Uint8Array;
  width: number;
  /** Height of one frame. */
  height: number;
  frames: number;
  /** Milliseconds each frame shows. */
  delays: number[];
  /** Times the animation plays (0: forever), as the GIF said. */
  loop: number;
}

export interface GifHeader {
  width: number;
  height: number;
  frames: number;
  delays: number[];
  loop: number;
}

/** Reads a GIF's size and timing without decoding its pixels; refuses anything but a GIF. */
export async function readGifHeader(bytes: Buffer): Promise<GifHeader> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { animated: true }).metadata();
  } catch (error) {
    throw new EngineError('undecodable_input', 'cannot decode the GIF', { cause: error });
  }
  if (meta.format !== 'gif') throw new EngineError('unsupported_format', `unsupported format ${meta.format ?? 'unknown'}: expected a GIF`);
  const frames = meta.pages ?? 1;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const delays = Array.from({ length: frames }, (_, i) => meta.delay?.[i] ?? 0);
  return { width: meta.width ?? 0, height, frames, delays, loop: meta.loop ?? 0 };
}

export async function decodeGif(bytes: Buffer, header: GifHeader): Promise<DecodedGif> {
  try {
    const data = await sharp(bytes, { animated: true, limitInputPixels: false }).ensureAlpha().raw().toBuffer();
    return { ...header, rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch (error) {
    throw new EngineError('undecodable_input', 'cannot decode the GIF', { cause: error });
  }
}

/** Frame `index` as RGB (a copy: detection and swapping work on 3 bytes per pixel). */
export function gifFrame(gif: DecodedGif, index: number): RgbImage {
  const pixels = gif.width * gif.height;
  const rgb = new Uint8Array(pixels * 3);
  const base = index * pixels * 4;
  for (let p = 0; p < pixels; p++) {
    rgb[p * 3] = gif.rgba[base + p * 4]!;
    rgb[p * 3 + 1] = gif.rgba[base + p * 4 + 1]!;
    rgb[p * 3 + 2] = gif.rgba[base + p * 4 + 2]!;
  }
  return { rgb, width: gif.width, height: gif.height };
}

/** Writes an RGB frame back over frame `index`, keeping that frame's transparency. */
export function putGifFrame(gif: DecodedGif, index: number, frame: RgbImage): void {
  const pixels = gif.width * gif.height;
  const base = index * pixels * 4;
  for (let p = 0; p < pixels; p++) {
    gif.rgba[base + p * 4] = frame.rgb[p * 3]!;
    gif.rgba[base + p * 4 + 1] = frame.rgb[p * 3 + 1]!;
    gif.rgba[base + p * 4 + 2] = frame.rgb[p * 3 + 2]!;
  }
}

/**
 * How long a frame with this delay is on screen: browsers show a delay of 10 ms or less (most
 * often 0, "as fast as possible") as 100 ms. Frame times and a GIF's priced length follow what
 * a viewer sees, so a GIF of zero delays is neither free nor zero seconds long.
 */
export function shownDelayMs(delay: number): number {
  return delay <= 10 ? 100 : delay;
}

/** Seconds a GIF plays once through, as browsers show it (see `shownDelayMs`). */
export function gifDurationSeconds(delays: readonly number[]): number {
  return delays.reduce((sum, delay) => sum + shownDelayMs(delay), 0) / 1000;
}

/** Seconds after the start at which frame `index` begins to show. */
export function gifFrameStart(delays: readonly number[], index: number): number {
  return gifDurationSeconds(delays.slice(0, index));
}

/** The frame showing at `seconds` after the start (the last frame beyond the end). */
export function gifFrameAt(delays: readonly number[], seconds: number): number {
  let end = 0;
  for (const [i, delay] of delays.entries()) {
    end += shownDelayMs(delay) / 1000;
    if (seconds < end) return i;
  }
  return delays.length - 1;
}

export async function encodeGif(gif: DecodedGif): Promise<Buffer> {
  return sharp(gif.rgba, { raw: { width: gif.width, height: gif.height * gif.frames, channels: 4, pageHeight: gif.height } })
    .gif({ delay: gif.delays, loop: gif.loop })
    .toBuffer();
}
