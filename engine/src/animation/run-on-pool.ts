import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { ComputePool } from '../pool/compute-pool';
import { unwrap } from '../pool/outcome';
import type { GifTask, VideoTask } from '../pool/tasks';
import type { SwapVideoResult } from '../video/swap-video';
import type { SwapGifResult } from './swap-gif';

/** Runs `work` with a progress port whose reports reach `onProgress` on this thread. */
async function withProgress<T>(onProgress: (percent: number) => void, work: (port: MessagePort) => Promise<T>): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (percent: number) => onProgress(percent));
  try {
    return await work(port2);
  } finally {
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

/** A video swap on the pool (file paths in and out), with progress delivered to `onProgress`. */
export function swapVideoOnPool(
  pool: ComputePool,
  input: Omit<VideoTask, 'progress'>,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<SwapVideoResult> {
  return withProgress(onProgress, async (port) => unwrap(await pool.run('video', { ...input, progress: port }, { transferList: [port], signal })));
}
