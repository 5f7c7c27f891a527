import os from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { SwapImageResult } from '../swap/swap-image';
import { unwrap } from './outcome';
import type * as tasks from './tasks';
import type { SwapTask } from './tasks';

type Tasks = { [K in keyof typeof tasks as (typeof tasks)[K] extends (input: never) => unknown ? K : never]: (typeof tasks)[K] };
type TaskName = keyof Tasks & string;

export interface ComputePoolOptions {
  /** Worker threads; each holds its own copy of the models. Default: one per core. */
  threads?: number;
}

/**
 * Runs the engine's CPU work (content scans, face detection, swaps) on worker threads, so the
 * event loop stays free for HTTP, queue heartbeats and progress writes while a swap runs. Each
 * thread loads its models once, on first use.
 */
export class ComputePool {
  private readonly piscina: Piscina;

  constructor(options: ComputePoolOptions = {}) {
    const threads = options.threads ?? os.availableParallelism();
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

/** A swap on the pool, with the thread's progress reports delivered to `onProgress`. */
export async function swapWithProgress(
  pool: ComputePool,
  input: Omit<SwapTask, 'progress'>,
  onProgress: (percent: number) => void,
): Promise<SwapImageResult> {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (percent: number) => onProgress(percent));
  try {
    return unwrap(await pool.run('swap', { ...input, progress: port2 }, [port2]));
  } finally {
    port1.close();
  }
}
