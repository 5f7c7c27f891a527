import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { detectFaces } from '../faces/detect-faces';
import { meshTopology } from '../faces/mesh-topology';
import { prepareSources } from '../swap/prepare-sources';
import { checkVideoCaps, DEFAULT_VIDEO_CAPS, type VideoCaps } from '../animation/caps';
import { followFaces } from '../animation/follow-faces';
import { IdentityGallery, type ReferenceFrame } from '../animation/identity-gallery';
import { EngineError } from '../faces/engine-error';
import { swapFollowed, type Replacement } from '../animation/swap-frames';
import { requireFfmpeg } from './ffmpeg';
import { probeVideo, type VideoInfo } from './probe-video';
import { readFrames } from './read-frames';
import { openEncoder } from './write-frames';

/** One person to replace: the face at `faceIndex` (face order) on the frame at `frameTimeSeconds`. */
export interface FaceSwapItem {
  frameTimeSeconds: number;
  faceIndex: number;
  /** Encoded photo whose largest face replaces that person throughout the video. */
  source: Buffer;
}

export interface SwapVideoInput {
  /** The video: a file path, or its bytes (written to a temporary file, as ffprobe needs to seek). */
  input: string | Buffer;
  /** Where the MP4 is written. */
  output: string;
  /** With `source`: the person picked on the reference frame (default: largest face there). */
  source?: Buffer;
  targetFaceIndex?: number;
  referenceFrameTimeSeconds?: number;
  /** Instead of `source`: several people at once, each with their own source. */
  faceSwaps?: FaceSwapItem[];
  enableFaceEnhancer?: boolean;
  /** Copy the audio track into the output (default true); false writes a silent video. */
  keepAudio?: boolean;
  /** Called with 0..100: the share of frames done. */
  onProgress?: (percent: number) => void;
  caps?: VideoCaps;
}

export interface SwapVideoResult {
  width: number;
  height: number;
  fps: number;
  frames: number;
  durationSeconds: number;
  hasAudio: boolean;
}

/**
 * Faces are detected on about four frames per second and interpolated between (see
 * `followFaces`): detection costs about 150 ms per frame at 640x360, several times the swap.
 */
const KEYFRAMES_PER_SECOND = 4;
/** Identity re-checked about every two seconds (a check costs about 100 ms per face on the frame). */
const VERIFY_EVERY = 8;

/**
 * Swaps people through a video, frame by frame, streamed from one ffmpeg to another so memory
 * stays bounded whatever the length. Output: H.264 MP4 at the source's size and frame rate, with
 * the source's audio when `keepAudio`.
 */
export async function swapVideo(input: SwapVideoInput): Promise<SwapVideoResult> {
  await requireFfmpeg();
  const scratch = typeof input.input === 'string' ? null : await mkdtemp(path.join(os.tmpdir(), 'doppel-video-'));
  try {
    const file = scratch ? path.join(scratch, 'input') : (input.input as string);
    if (scratch) await writeFile(file, input.input as Buffer);
    return await swapVideoFile(file, input);
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

async function swapVideoFile(file: string, input: SwapVideoInput): Promise<SwapVideoResult> {
  const progress = input.onProgress ?? (() => undefined);
  const video = await probeVideo(file);
  checkVideoCaps(video, input.caps ?? DEFAULT_VIDEO_CAPS);
  progress(0);
  const items = swapItems(input);
  const gallery = IdentityGallery.fromReferences(await referenceFrames(file, video, items));
  // Identical source photos are prepared once, however many faces they go to.
  const prepared = await Promise.all(prepareSources(items));
  const replacements: Replacement[] = prepared.map((source) => ({ source, enhance: input.enableFaceEnhancer === true }));
  const topology = await meshTopology();
  const audio = input.keepAudio !== false && video.audioCodec ? { file, codec: video.audioCodec } : null;
  const encoder = openEncoder({ output: input.output, width: video.width, height: video.height, frameRate: video.frameRate, audio });
  let frames = 0;
  let reported = 0;
  try {
    const follow = { keyframeInterval: Math.max(1, Math.round(video.fps / KEYFRAMES_PER_SECOND)), verifyEvery: VERIFY_EVERY };
    for await (const frame of followFaces(readFrames(file, video), gallery, follow)) {
      swapFollowed(frame, replacements, topology);
      await encoder.write(frame.image.rgb);
      frames++;
      const percent = Math.min(99, Math.floor((100 * frames) / video.frames));
      if (percent > reported) progress((reported = percent));
    }
    await encoder.finish();
  } catch (error) {
    encoder.abort();
    throw error;
  }
  progress(100);
  return { width: video.width, height: video.height, fps: video.fps, frames, durationSeconds: frames / video.fps, hasAudio: audio !== null };
}

/** A person to replace; without `faceIndex`, the largest face on the frame. */
type Item = Omit<FaceSwapItem, 'faceIndex'> & { faceIndex?: number };

function swapItems(input: SwapVideoInput): Item[] {
  if (input.faceSwaps?.length) return input.faceSwaps;
  if (!input.source) throw new Error('swapVideo needs a source or face swaps');
  return [{ frameTimeSeconds: input.referenceFrameTimeSeconds ?? 0, faceIndex: input.targetFaceIndex, source: input.source }];
}

/** The frames the items name, each decoded once and detected with descriptors. */
async function referenceFrames(file: string, video: VideoInfo, items: Item[]): Promise<ReferenceFrame[]> {
  const times = [...new Set(items.map((item) => item.frameTimeSeconds))];
  const frames: ReferenceFrame[] = [];
  for (const seconds of times) {
    if (!(seconds >= 0 && seconds <= video.durationSeconds)) {
      throw new EngineError('frame_time_out_of_range', `frame time ${seconds} s is outside the video (0-${video.durationSeconds.toFixed(3)} s)`);
    }
    // The last frame starts one frame before the end; a time past its start means that frame.
    const start = Math.min(seconds, Math.max(0, video.durationSeconds - 1 / video.fps));
    const decoded = readFrames(file, video, { startSeconds: start, maxFrames: 1 });
    const image = (await decoded.next()).value;
    await decoded.return(undefined);
    if (!image) throw new EngineError('undecodable_input', `cannot decode the video frame at ${seconds} s`);
    const label = `the frame at ${seconds} s`;
    frames.push({
      faces: await detectFaces(image, { descriptors: true }),
      picks: items.flatMap((item, person) =>
        item.frameTimeSeconds === seconds ? [{ person, pick: { faceIndex: item.faceIndex, frameLabel: label } }] : [],
      ),
    });
  }
  return frames;
}
