import os from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { PreparedSourceCache, sourceKey } from '../swap/source-cache';
import type { SwapImageResult } from '../swap/swap-image';
import { unwrap } from './outcome';
import type * as tasks from './tasks';
import type { SwapTask } from './tasks';

type Tasks = { [K in keyof typeof tasks as (typeof tasks)[K] extends (input: never) => unknown ? K : never]: (typeof tasks)[K] };
type TaskName = keyof Tasks & string;

export interface ComputePoolOptions {
  /** Worker threads; each holds its own copy of the models. Default: one per core. */
  threads?: number;
  /** Memory for prepared sources shared by the threads (see `PreparedSourceCache`). */
  sourceCacheBytes?: number;
}

/**
 * Runs the engine's CPU work (content scans, face detection, swaps) on worker threads, so the
 * event loop stays free for HTTP, queue heartbeats and progress writes while a swap runs. Each
 * thread loads its models once, on first use.
 */
export class ComputePool {
  private readonly piscina: Piscina;
  /**
   * Prepared sources for every thread. The cache lives here, on the main thread, rather than in
   * each thread: piscina hands a task to whichever thread is free, so a per-thread cache would miss
   * whenever a repeated source lands on another thread, and would hold one copy per thread. The
   * entries sit in SharedArrayBuffers, so passing one to a thread shares it without a copy.
   */
  readonly sources: PreparedSourceCache;

  constructor(options: ComputePoolOptions = {}) {
    const threads = options.threads ?? os.availableParallelism();
    this.sources = new PreparedSourceCache(options.sourceCacheBytes);
    this.piscina = new Piscina({
      filename: new URL('./thread.mjs', import.meta.url).href,
      minThreads: 1,
      maxThreads: threads,
      // A model and a decoded frame or two per thread; idle threads are kept to keep models warm.
      idleTimeout: 10 * 60_000,
    });
  }

  /** `transferList` moves ports (progress channels) and large buffers to the thread instead of copying. */
  run<N extends TaskName>(name: N, input: Parameters<Tasks[N]>[0], transferList?: readonly MessagePort[]): ReturnType<Tasks[N]> {
    return this.piscina.run({ task: name, input }, { transferList: transferList as MessagePort[] | undefined }) as ReturnType<Tasks[N]>;
  }

  destroy(): Promise<void> {
    return this.piscina.destroy();
  }
}

/**
 * A swap on the pool, with the thread's progress reports delivered to `onProgress`. Sources seen
 * before come prepared from the pool's cache; those the thread prepares go into it.
 */
export async function swapWithProgress(
  pool: ComputePool,
  input: Omit<SwapTask, 'progress'>,
  onProgress: (percent: number) => void,
): Promise<SwapImageResult> {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (percent: number) => onProgress(percent));
  const keys = input.mappings.map((mapping) => sourceKey(mapping.source));
  const mappings = input.mappings.map((mapping, i) => ({ ...mapping, prepared: pool.sources.get(keys[i]!) }));
  try {
    const { prepared, ...result } = unwrap(await pool.run('swap', { ...input, mappings, progress: port2 }, [port2]));
    prepared.forEach((source, i) => source && pool.sources.set(keys[i]!, source));
    return result;
  } finally {
    port1.close();
  }
}
