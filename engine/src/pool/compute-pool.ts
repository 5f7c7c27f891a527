import os from 'node:os';
import v8 from 'node:v8';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { PreparedSourceCache, sourceKey } from '../swap/source-cache';
import type { SwapImageResult } from '../swap/swap-image';
import { unwrap } from './outcome';
import type * as tasks from './tasks';
import type { SwapTask } from './tasks';
import type { PreparedSource } from '../swap/prepared-source';
import { newSourceClaim, type HelpedSource, type SourceClaim } from './source-claim';

type Tasks = { [K in keyof typeof tasks as (typeof tasks)[K] extends (input: never) => unknown ? K : never]: (typeof tasks)[K] };
type TaskName = keyof Tasks & string;

/**
 * Which lane a task runs in. Renders (image, GIF and video swaps) take seconds to an hour;
 * scans and detections take a fraction of a second and a create waits on its scan. In one FIFO
 * queue a few long renders would hold every thread, and creates would time out behind them.
 */
const LANE_OF: Record<TaskName, 'render' | 'quick'> = {
  swap: 'render',
  prepareSource: 'render',
  gif: 'render',
  videoSetUp: 'render',
  videoChunk: 'render',
  videoStartFaces: 'render',
  warmRenderThread: 'render',
  warmQuickThread: 'quick',
  scan: 'quick',
  detect: 'quick',
};

export interface ComputePoolOptions {
  /** Render threads (swaps); each holds its own copy of the models. Default: one per core. */
  threads?: number;
  /** Threads for scans and face detection, beside the render threads. Default: 1. */
  quickThreads?: number;
  /** Memory for prepared sources shared by the threads (see `PreparedSourceCache`). */
  sourceCacheBytes?: number;
}

/** Rounds of warm-up tasks before a lane's threads are taken as warm as they will get (see `ComputePool.warmUp`). */
const WARM_UP_ROUNDS = 4;

/**
 * Old-generation size (MB) a compute thread's heap starts with. A swap allocates its buffers as
 * typed arrays outside the JS heap (about 14 MB per 1280x720 video frame), and V8 starts a full
 * collection whenever that outside memory outgrows a limit it ties to the old generation, which
 * holds only about 31 MB here: about every frame and a half (90 full collections per thread on a
 * 10 s 720p clip). Starting at 128 MB or more: 15; at 64, no change. On the pool, the 720p clip
 * ran at 14.0 fps against 12.0 (five runs each, in turn); peak RSS 1061 MB against 1011 (one run
 * each).
 */
const THREAD_OLD_SPACE_MB = 256;

/**
 * Runs the engine's CPU work (content scans, face detection, swaps) on worker threads, so the
 * event loop stays free for HTTP, queue heartbeats and progress writes while a swap runs. Each
 * thread loads its models once, on first use.
 */
export class ComputePool {
  private readonly lanes: Record<'render' | 'quick', Piscina>;
  /**
   * Prepared sources for every thread. The cache lives here, on the main thread, rather than in
   * each thread: piscina hands a task to whichever thread is free, so a per-thread cache would miss
   * whenever a repeated source lands on another thread, and would hold one copy per thread. The
   * entries sit in SharedArrayBuffers, so passing one to a thread shares it without a copy.
   */
  readonly sources: PreparedSourceCache;
  /** Threads of the render lane: a video swap runs that many of its chunks at once. */
  readonly renderThreads: number;
  /** Threads of the quick lane. */
  readonly quickThreads: number;

  constructor(options: ComputePoolOptions = {}) {
    const threads = options.threads ?? os.availableParallelism();
    this.renderThreads = threads;
    this.quickThreads = options.quickThreads ?? 1;
    this.sources = new PreparedSourceCache(options.sourceCacheBytes);
    // V8 reads the flag as each isolate starts: every thread started from here on (these among
    // them) gets the larger heap. No `Worker` option sets a heap's starting size.
    v8.setFlagsFromString(`--initial-old-space-size=${THREAD_OLD_SPACE_MB}`);
    const lane = (maxThreads: number) =>
      new Piscina({
        filename: new URL('./thread.mjs', import.meta.url).href,
        minThreads: 1,
        maxThreads,
        // A model and a decoded frame or two per thread; idle threads are kept to keep models warm.
        idleTimeout: 10 * 60_000,
      });
    this.lanes = { render: lane(threads), quick: lane(this.quickThreads) };
  }

  /**
   * `transferList` moves ports (progress channels) and large buffers to the thread instead of
   * copying. `signal` withdraws a queued task, and stops a running one by ending its thread (the
   * lane starts a fresh one): work whose result can no longer be used (its job expired or was
   * taken over) stops holding a thread. The task then rejects with piscina's AbortError.
   */
  run<N extends TaskName>(name: N, input: Parameters<Tasks[N]>[0], options: { transferList?: readonly MessagePort[]; signal?: AbortSignal } = {}): ReturnType<Tasks[N]> {
    return this.lanes[LANE_OF[name]].run(
      { task: name, input },
      { transferList: options.transferList as MessagePort[] | undefined, signal: options.signal },
    ) as ReturnType<Tasks[N]>;
  }

  /**
   * Starts every thread of both lanes and loads its models (the face models; on the quick lane the
   * content scan's too), so the first requests after a worker starts do not wait for them: on a
   * fresh pool the first scan, which a create waits on, took 1.4 s, on a warm one 0.12 s.
   * Resolves with how many threads of each lane are warm. Piscina gives a task to whichever thread
   * is free, so tasks go out a round at a time until each thread has run one (a warm thread's
   * costs nothing: its models stay loaded).
   */
  async warmUp(): Promise<{ render: number; quick: number }> {
    const warmLane = async (task: 'warmRenderThread' | 'warmQuickThread', threads: number) => {
      const warm = new Set<number>();
      for (let round = 0; round < WARM_UP_ROUNDS && warm.size < threads; round++) {
        const ids = await Promise.all(Array.from({ length: threads }, async () => unwrap(await this.run(task, undefined))));
        for (const id of ids) warm.add(id);
      }
      return warm.size;
    };
    const [render, quick] = await Promise.all([warmLane('warmRenderThread', this.renderThreads), warmLane('warmQuickThread', this.quickThreads)]);
    return { render, quick };
  }

  async destroy(): Promise<void> {
    await Promise.all([this.lanes.render.destroy(), this.lanes.quick.destroy()]);
  }
}

/**
 * A swap on the pool, with the thread's progress reports delivered to `onProgress`. Sources seen
 * before come prepared from the pool's cache. Each one not seen before gets a helper task beside
 * the swap, which prepares it on another thread while the swap analyses the target (see
 * `SourceClaim`); what the helpers and the swap's thread prepare goes into the cache.
 */
export async function swapWithProgress(
  pool: ComputePool,
  input: Omit<SwapTask, 'progress' | 'helped'>,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<SwapImageResult> {
  const progress = new MessageChannel();
  progress.port1.on('message', (percent: number) => onProgress(percent));
  const helped = new MessageChannel();
  const keys = input.mappings.map((mapping) => sourceKey(mapping.source));
  const claims = new Map<string, { index: number; claim: SourceClaim }>();
  const mappings = input.mappings.map((mapping, index) => {
    const prepared = pool.sources.get(keys[index]!);
    if (prepared) return { ...mapping, prepared };
    // Mappings of identical bytes share the first one's claim and helper.
    let helper = claims.get(keys[index]!);
    if (!helper) claims.set(keys[index]!, (helper = { index, claim: newSourceClaim() }));
    return { ...mapping, claim: helper.claim };
  });
  try {
    const swapping = pool.run('swap', { ...input, mappings, progress: progress.port2, helped: helped.port2 }, { transferList: [progress.port2, helped.port2], signal });
    for (const [key, { index, claim }] of claims) {
      const tell = (prepared: PreparedSource | null) => helped.port1.postMessage({ index, prepared } satisfies HelpedSource);
      void pool
        .run('prepareSource', { source: input.mappings[index]!.source, claim }, { signal })
        .then(unwrap)
        .then(
          (prepared) => {
            if (!prepared) return;
            pool.sources.set(key, prepared);
            tell(prepared);
          },
          // The swap's thread then prepares the source itself, and reports its own error.
          () => tell(null),
        );
    }
    const { prepared, ...result } = unwrap(await swapping);
    prepared.forEach((source, i) => source && pool.sources.set(keys[i]!, source));
    return result;
  } finally {
    progress.port1.close();
    helped.port1.close();
  }
}
