import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { ComputePool } from '../pool/compute-pool';
import { unwrap } from '../pool/outcome';
import type { GifTask } from '../pool/tasks';
import { sourceKey } from '../swap/source-cache';
import { swapVideo, type SwapVideoInput, type SwapVideoResult, type VideoSwapRunner } from '../video/swap-video';
import type { SwapGifResult } from './swap-gif';

/** Runs `work` with a progress port whose reports reach `onProgress` on this thread. */
async function withProgress<T>(onProgress: (value: number) => void, work: (port: MessagePort) => Promise<T>): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (value: number) => onProgress(value));
  try {
    return await work(port2);
  } finally {
    port1.close();
  }
}

/**
 * Runs `work` with a port that `signal` stops it through: the task stops itself and its thread
 * lives on. Video tasks stop this way rather than by piscina's signal, which ends the thread and
 * with it the reaping of its ffmpeg processes (see `stoppable` in pool/tasks.ts). Rejects with the
 * signal's reason once stopped.
 */
async function withStop<T>(signal: AbortSignal | undefined, work: (port: MessagePort) => Promise<T>): Promise<T> {
  signal?.throwIfAborted();
  const { port1, port2 } = new MessageChannel();
  const stop = () => port1.postMessage(null);
  signal?.addEventListener('abort', stop, { once: true });
  try {
    return await work(port2);
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener('abort', stop);
    port1.close();
  }
}

/** A GIF swap on the pool, with the thread's progress reports delivered to `onProgress`. */
export function swapGifOnPool(
  pool: ComputePool,
  input: Omit<GifTask, 'progress'>,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<SwapGifResult> {
  return withProgress(onProgress, async (port) => unwrap(await pool.run('gif', { ...input, progress: port }, { transferList: [port], signal })));
}

/**
 * A video swap for the pool: file paths in and out (the caller writes the input to `input` and
 * reads the MP4 from `output`), so the video never crosses a thread boundary.
 */
export interface VideoSwapRequest extends Pick<SwapVideoInput, 'output' | 'targetFaceIndex' | 'referenceFrameTimeSeconds' | 'enableFaceEnhancer' | 'keepAudio' | 'minChunkSeconds'> {
  input: string;
  source?: Uint8Array;
  faceSwaps?: { frameTimeSeconds: number; faceIndex: number; source: Uint8Array }[];
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * A video swap on the pool: probing and the caps here (ffprobe runs as a child process), the set-up
 * as one task, then the video's chunks on every render thread at once, joined here. `signal`
 * stops the set-up or the running chunks, each before its next frame, and starts no more. Sources
 * seen before come prepared from the pool's cache; those the set-up prepares go into it.
 */
export function swapVideoOnPool(
  pool: ComputePool,
  input: VideoSwapRequest,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<SwapVideoResult> {
  const runner: VideoSwapRunner = {
    threads: pool.renderThreads,
    async setUp(setUp, stop) {
      const keys = setUp.people.map((person) => sourceKey(person.source));
      const people = setUp.people.map((person, i) => ({ ...person, prepared: pool.sources.get(keys[i]!) }));
      const result = await withStop(stop, async (port) => unwrap(await pool.run('videoSetUp', { ...setUp, people, stop: port }, { transferList: [port] })));
      result.sources.forEach((source, i) => people[i]!.prepared || pool.sources.set(keys[i]!, source));
      return result;
    },
    swapChunk: (chunk, onFrame, stop) =>
      withProgress(onFrame, (progress) =>
        withStop(stop, async (port) => unwrap(await pool.run('videoChunk', { ...chunk, progress, stop: port }, { transferList: [progress, port] }))),
      ),
    facesOnVideoStart: async (file, video) => unwrap(await pool.run('videoStartFaces', { file, video })),
  };
  return swapVideo(
    {
      ...input,
      source: input.source && asBuffer(input.source),
      faceSwaps: input.faceSwaps?.map((item) => ({ ...item, source: asBuffer(item.source) })),
      onProgress,
      signal,
    },
    runner,
  );
}
