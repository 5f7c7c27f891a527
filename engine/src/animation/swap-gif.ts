import { detectFaces } from '../faces/detect-faces';
import { meshTopology } from '../faces/mesh-topology';
import { loadSource } from '../swap/load-source';
import { checkGifCaps, DEFAULT_GIF_CAPS, type GifCaps } from './caps';
import { followFaces } from './follow-faces';
import { decodeGif, encodeGif, gifFrame, gifFrameAt, putGifFrame, readGifHeader, type DecodedGif } from './gif-frames';
import { IdentityGallery } from './identity-gallery';
import { followedSwapper } from './swap-frames';

export interface SwapGifInput {
  /** An animated (or single-frame) GIF. */
  target: Buffer;
  /** Encoded photo whose largest face is swapped in. */
  source: Buffer;
  /** The face to replace, in face order on the reference frame; absent: the largest face there. */
  targetFaceIndex?: number;
  /** Time of the reference frame, in seconds from the start; default 0. */
  referenceFrameTimeSeconds?: number;
  enableFaceEnhancer?: boolean;
  /** Called with 0..100 as frames are done. */
  onProgress?: (percent: number) => void;
  caps?: GifCaps;
}

export interface SwapGifResult {
  image: Buffer;
  width: number;
  height: number;
  frames: number;
}

/**
 * GIF frames are few and often far apart in time (10-15 per second, with jumps), so faces are
 * detected on every frame rather than interpolated; identity is re-checked every few frames.
 */
export const GIF_FOLLOW = { keyframeInterval: 1, verifyEvery: 5 };

/**
 * Swaps one person through an animated GIF: the face picked on the reference frame is followed
 * through every frame (by position, and by identity against every face on the reference frame)
 * and replaced wherever it is seen. The result keeps the frame count, size, delays and loop count.
 */
export async function swapGif(input: SwapGifInput): Promise<SwapGifResult> {
  const progress = input.onProgress ?? (() => undefined);
  progress(0);
  const header = await readGifHeader(input.target);
  checkGifCaps(header, input.caps ?? DEFAULT_GIF_CAPS);
  const gif = await decodeGif(input.target, header);
  const seconds = input.referenceFrameTimeSeconds ?? 0;
  const reference = gifFrameAt(gif.delays, seconds);
  const gallery = IdentityGallery.fromReferences([
    {
      faces: await detectFaces(gifFrame(gif, reference), { descriptors: true }),
      picks: [{ person: 0, pick: { faceIndex: input.targetFaceIndex, frameLabel: `the GIF frame at ${seconds} s (frame ${reference})` } }],
    },
  ]);
  const replacements = [{ source: await loadSource(input.source), enhance: input.enableFaceEnhancer === true }];
  const topology = await meshTopology();
  const swapFrame = followedSwapper(replacements, topology);
  progress(5);
  let done = 0;
  for await (const frame of followFaces(framesOf(gif), gallery, GIF_FOLLOW)) {
    swapFrame(frame);
    putGifFrame(gif, done++, frame.image);
    progress(5 + Math.floor((90 * done) / gif.frames));
  }
  const image = await encodeGif(gif);
  progress(100);
  return { image, width: gif.width, height: gif.height, frames: gif.frames };
}

async function* framesOf(gif: DecodedGif) {
  for (let i = 0; i < gif.frames; i++) yield gifFrame(gif, i);
}
