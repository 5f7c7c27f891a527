import type { VideoChunk } from './swap-chunk';

/** Chunks are at least this long by default: each costs a seek, an identity check and an encoder start. */
export const MIN_CHUNK_SECONDS = 3;
/**
 * At most this many chunks per thread: with chunks of unequal cost (people come and go), a
 * thread that finishes early takes the next one instead of waiting for the slowest.
 */
const CHUNKS_PER_THREAD = 4;

export interface ChunkPlanOptions {
  /** Frames of the video (on the constant-rate grid, as far as measured). */
  frames: number;
  fps: number;
  /** Chunks start on a multiple of this (keyframes fall where one pass would put them). */
  keyframeInterval: number;
  /** Threads the chunks share. */
  threads: number;
  minChunkSeconds: number;
}

/**
 * Cuts a video into contiguous chunks for `threads` threads: one chunk on one thread; otherwise a
 * multiple of the threads where the length allows (so the last round keeps every thread busy),
 * each at least `minChunkSeconds`. The last chunk runs to the end, whatever the frame count says.
 * Each chunk after the first follows people from one keyframe interval before its first frame.
 */
export function planChunks(options: ChunkPlanOptions): VideoChunk[] {
  const { frames, keyframeInterval: interval, threads } = options;
  const fit = Math.floor(frames / options.fps / options.minChunkSeconds);
  const wanted = threads <= 1 ? 1 : Math.max(1, Math.min(fit, threads * CHUNKS_PER_THREAD));
  const count = wanted > threads ? wanted - (wanted % threads) : wanted;
  const step = Math.max(interval, Math.round(frames / count / interval) * interval);
  const chunks: VideoChunk[] = [];
  for (let first = 0; chunks.length < count && (first === 0 || first < frames); first += step) {
    chunks.push({ first, count: step, lead: Math.min(first, interval) });
  }
  chunks.at(-1)!.count = null;
  return chunks;
}
