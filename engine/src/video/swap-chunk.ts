import { followFaces, type FollowOptions } from '../animation/follow-faces';
import { IdentityGallery } from '../animation/identity-gallery';
import { followedSwapper, type Replacement } from '../animation/swap-frames';
import type { Face } from '../faces/detect-faces';
import { EngineError } from '../faces/engine-error';
import { meshTopology } from '../faces/mesh-topology';
import { readFrames, type FrameSource } from './read-frames';
import type { VideoSwapSetUp } from './set-up-swap';
import { openEncoder, type FrameEncoder } from './write-frames';

/**
 * Faces are detected on about four frames per second and interpolated between (see
 * `followFaces`): detection costs about 150 ms per frame at 640x360, several times the swap.
 */
const KEYFRAMES_PER_SECOND = 4;
/** Identity re-checked about every two seconds (a check costs about 100 ms per face on the frame). */
const VERIFY_EVERY = 8;

/** How people are followed through a video at `fps`. */
export function videoFollowOptions(fps: number): FollowOptions {
  return { keyframeInterval: Math.max(1, Math.round(fps / KEYFRAMES_PER_SECOND)), verifyEvery: VERIFY_EVERY };
}

/** A contiguous run of a video's frames, swapped on its own. */
export interface VideoChunk {
  /** Index of its first frame. */
  first: number;
  /** Frames in it; null: to the end of the video. */
  count: number | null;
  /**
   * Frames before `first` that are followed but not written: people are then located on `first`
   * with what came before, as on any keyframe (a face the detector misses there is tracked).
   */
  lead: number;
}

export interface ChunkInput extends VideoSwapSetUp {
  file: string;
  video: FrameSource;
  chunk: VideoChunk;
  enhance: boolean;
  /** Where the chunk's frames are written: an H.264 MP4 without audio. */
  output: string;
  /** The faces on the chunk's first frame (that of its lead), found beforehand (`facesOnFirstFrame`). */
  firstFaces?: Face[];
}

/**
 * Follows people through one chunk of a video (from its lead), swaps them on every frame and
 * encodes the frames to `output`; `onFrame` gets the frames written so far. Resolves with the
 * frame count, 0 when the video ends before the chunk (no file is written then). `signal` stops it
 * before the next frame, with its ffmpeg processes ended.
 */
export async function swapChunk(input: ChunkInput, onFrame: (done: number) => void, signal?: AbortSignal): Promise<number> {
  const { chunk, video } = input;
  const gallery = IdentityGallery.fromData(input.gallery);
  const replacements: Replacement[] = input.sources.map((source) => ({ source, enhance: input.enhance }));
  const topology = await meshTopology();
  const swapFrame = followedSwapper(replacements, topology);
  const frames = readFrames(input.file, video, { first: chunk.first - chunk.lead, count: chunk.count === null ? undefined : chunk.lead + chunk.count });
  let encoder: FrameEncoder | null = null;
  let followed = 0;
  let done = 0;
  try {
    signal?.throwIfAborted();
    for await (const frame of followFaces(frames, gallery, videoFollowOptions(video.fps), input.firstFaces)) {
      signal?.throwIfAborted();
      if (followed++ < chunk.lead) continue;
      swapFrame(frame);
      encoder ??= openEncoder({ output: input.output, width: video.width, height: video.height, frameRate: video.frameRate });
      await encoder.write(frame.image.rgb);
      onFrame(++done);
    }
    // A chunk ends before the video's measured end: a short one means the seek went wrong, and
    // the joined video would miss frames.
    if (chunk.count !== null && done < chunk.count) {
      throw new EngineError('undecodable_input', 'cannot decode the video: it is damaged or uses a form ffmpeg cannot read', {
        cause: new Error(`frames ${chunk.first + done}-${chunk.first + chunk.count - 1} could not be decoded`),
      });
    }
    await encoder?.finish();
  } catch (error) {
    await encoder?.abort();
    throw error;
  }
  return done;
}
