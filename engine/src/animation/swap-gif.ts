import { detectFaces, type Face } from '../faces/detect-faces';
import { meshTopology } from '../faces/mesh-topology';
import { loadSource } from '../swap/load-source';
import { checkGifCaps, DEFAULT_GIF_CAPS, type GifCaps } from './caps';
import { firstFrameWithFaces } from './first-face';
import { followFaces } from './follow-faces';
import { decodeGif, encodeGif, gifFrame, gifFrameAt, gifFrameStart, putGifFrame, readGifHeader, type DecodedGif } from './gif-frames';
import { IdentityGallery } from './identity-gallery';
import { followedSwapper } from './swap-frames';

export interface SwapGifInput {
  /** An animated (or single-frame) GIF. */
  target: Buffer;
  /** Encoded photo whose largest face is swapped in. */
  source: Buffer;
  /** The face to replace, in face order on the reference frame; absent: the largest face there. */
  targetFaceIndex?: number;
  /** Time of the reference frame, in seconds from the start; absent: the first frame with a face. */
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
  const reference = await referenceFrame(gif, input.referenceFrameTimeSeconds, input.targetFaceIndex === undefined);
  const gallery = IdentityGallery.fromReferences([
    { faces: reference.faces, picks: [{ person: 0, pick: { faceIndex: input.targetFaceIndex, frameLabel: reference.label } }] },
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

/**
 * The reference frame's faces: the frame showing at `seconds`, or without it the first frame with a
 * face (`firstFrameWithFaces`, with faces half hidden when `hidden`).
 */
async function referenceFrame(gif: DecodedGif, seconds: number | undefined, hidden: boolean): Promise<{ faces: Face[]; label: string }> {
  if (seconds !== undefined) {
    const index = gifFrameAt(gif.delays, seconds);
    return { faces: await detectFaces(gifFrame(gif, index), { descriptors: true }), label: `the GIF frame at ${seconds} s (frame ${index})` };
  }
  const found = await firstFrameWithFaces(framesOf(gif), { hidden });
  if (!found) return { faces: [], label: `any of the GIF's ${gif.frames} frames` };
  const start = Number(gifFrameStart(gif.delays, found.looked).toFixed(3));
  return { faces: found.faces, label: `the GIF frame at ${start} s (frame ${found.looked}, the first with a face)` };
}
