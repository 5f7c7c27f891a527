import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkVideoCaps, DEFAULT_VIDEO_CAPS, type VideoCaps } from '../animation/caps';
import type { Face } from '../faces/detect-faces';
import { EngineError } from '../faces/engine-error';
import { joinSegments } from './join-segments';
import { MIN_CHUNK_SECONDS, planChunks } from './plan-chunks';
import { probeVideo } from './probe-video';
import { gridFrames, type FrameSource } from './read-frames';
import { runChunks } from './run-chunks';
import { setUpVideoSwap, type SetUpInput, type SwapPerson, type VideoSwapSetUp } from './set-up-swap';
import { swapChunk, videoFollowOptions, type ChunkInput } from './swap-chunk';

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
  /** The reference frame's time; absent: the first frame with a face (see `SwapPerson`). */
  referenceFrameTimeSeconds?: number;
  /** Instead of `source`: several people at once, each with their own source. */
  faceSwaps?: FaceSwapItem[];
  enableFaceEnhancer?: boolean;
  /** Copy the audio track into the output (default true); false writes a silent video. */
  keepAudio?: boolean;
  /** Called with 0..100: the share of frames done. */
  onProgress?: (percent: number) => void;
  caps?: VideoCaps;
  /** Shortest chunk a video is split into when it runs on several threads (default 3 s). */
  minChunkSeconds?: number;
  /** Stops the swap: no chunk starts after it; on the pool, queued and running chunks are withdrawn. */
  signal?: AbortSignal;
}

export interface SwapVideoResult {
  width: number;
  height: number;
  fps: number;
  frames: number;
  durationSeconds: number;
  hasAudio: boolean;
}

/** Where a video swap's set-up and chunks run: on this thread, or on the compute pool's render threads. */
export interface VideoSwapRunner {
  /** Chunks run at once. */
  threads: number;
  setUp(input: SetUpInput, signal?: AbortSignal): Promise<VideoSwapSetUp>;
  swapChunk(input: ChunkInput, onFrame: (done: number) => void, signal: AbortSignal): Promise<number>;
  /** The faces the first chunk starts from (`facesOnVideoStart`), found on a thread the set-up leaves free. */
  facesOnVideoStart?(file: string, video: FrameSource): Promise<Face[] | null>;
}

/** Everything on the calling thread, the video as one chunk. */
const ON_THIS_THREAD: VideoSwapRunner = {
  threads: 1,
  setUp: (input) => setUpVideoSwap(input),
  swapChunk: (input, onFrame) => swapChunk(input, onFrame),
};

/**
 * Swaps people through a video. The video is probed and checked against the caps here; the
 * reference frames and sources are set up once (`setUpVideoSwap`), the first frame's faces found
 * meanwhile on another thread (`facesOnVideoStart`); then the video is cut into
 * contiguous chunks of frames (`planChunks`), each decoded, followed, swapped and encoded on its
 * own (`swapChunk`), as many at once as the runner has threads, and the chunks' parts are joined
 * with the audio (`joinSegments`). Each chunk streams from one ffmpeg to another, so memory stays
 * bounded by a few frames per thread whatever the length. Output: H.264 MP4 at the source's size
 * and frame rate, with the source's audio when `keepAudio`. Temporary files (the parts, and the
 * video when given as bytes) are removed however the swap ends.
 */
export async function swapVideo(input: SwapVideoInput, runner: VideoSwapRunner = ON_THIS_THREAD): Promise<SwapVideoResult> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'doppel-video-'));
  try {
    const file = typeof input.input === 'string' ? input.input : path.join(scratch, 'input');
    if (typeof input.input !== 'string') await writeFile(file, input.input);
    return await swapVideoFile(file, scratch, input, runner);
  } finally {
    // A chunk's encoder ended with its thread may still be closing its part: retry a non-empty directory.
    await rm(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
}

async function swapVideoFile(file: string, scratch: string, input: SwapVideoInput, runner: VideoSwapRunner): Promise<SwapVideoResult> {
  const progress = input.onProgress ?? (() => undefined);
  const video = await probeVideo(file);
  checkVideoCaps(video, input.caps ?? DEFAULT_VIDEO_CAPS);
  progress(0);
  // The set-up holds one thread and leaves the others idle: one of them finds the faces on the
  // first frame meanwhile, which the first chunk would otherwise detect before its first frame
  // (0.3 s at 640x360). Either way the chunk starts from the same faces; should the look ahead
  // fail, the chunk looks itself.
  const ahead = runner.threads > 1 ? runner.facesOnVideoStart?.(file, video).catch(() => null) : undefined;
  const setUp = await runner.setUp({ file, video, people: swapPeople(input) }, input.signal).finally(() => ahead);
  const firstFaces = (await ahead) ?? undefined;
  const chunks = planChunks({
    frames: gridFrames(video),
    fps: video.fps,
    keyframeInterval: videoFollowOptions(video.fps).keyframeInterval,
    threads: runner.threads,
    minChunkSeconds: input.minChunkSeconds ?? MIN_CHUNK_SECONDS,
  });
  const parts = chunks.map((_, i) => path.join(scratch, `part-${i}.mp4`));
  const done = chunks.map(() => 0);
  let reported = 0;
  const report = (chunk: number, frames: number) => {
    done[chunk] = Math.max(done[chunk]!, frames);
    const percent = Math.min(99, Math.floor((100 * done.reduce((sum, n) => sum + n, 0)) / video.frames));
    if (percent > reported) progress((reported = percent));
  };
  const enhance = input.enableFaceEnhancer === true;
  const frames = await runChunks(chunks, runner.threads, input.signal, async (chunk, i, signal) => {
    const start = chunk.first === 0 ? { firstFaces } : {};
    const written = await runner.swapChunk({ ...setUp, file, video, chunk, enhance, output: parts[i]!, ...start }, (n) => report(i, n), signal);
    report(i, written);
    return written;
  });
  const total = frames.reduce((sum, n) => sum + n, 0);
  if (total === 0) throw new EngineError('undecodable_input', 'cannot decode the video: no frame could be read');
  const audio = input.keepAudio !== false && video.audioCodec ? { file, codec: video.audioCodec } : null;
  await joinSegments({ segments: parts.filter((_, i) => frames[i]! > 0), list: path.join(scratch, 'parts.txt'), output: input.output, audio });
  progress(100);
  return { width: video.width, height: video.height, fps: video.fps, frames: total, durationSeconds: total / video.fps, hasAudio: audio !== null };
}

function swapPeople(input: SwapVideoInput): SwapPerson[] {
  if (input.faceSwaps?.length) return input.faceSwaps;
  if (!input.source) throw new Error('swapVideo needs a source or face swaps');
  return [{ frameTimeSeconds: input.referenceFrameTimeSeconds, faceIndex: input.targetFaceIndex, source: input.source }];
}
