import {
  ComputePool,
  DEFAULT_SCAN_THRESHOLDS,
  swapGifOnPool,
  swapVideoOnPool,
  swapWithProgress,
  unwrap,
  type ScanThresholds,
} from '@doppel/engine';
import type { Config } from '@doppel/core/config';
import type { WorkerDeps } from './start-workers';

type Compute = Required<WorkerDeps['compute']>;

/** The engine's thread pool, shaped as the job handlers use it. */
export function computeOnPool(pool: ComputePool, thresholds: ScanThresholds): Compute {
  return {
    scan: async (input) => unwrap(await pool.run('scan', { ...input, thresholds })),
    detect: async (bytes) => unwrap(await pool.run('detect', { bytes })),
    engine: {
      swapImage: (input, onProgress, signal) => swapWithProgress(pool, input, onProgress, signal),
      swapGif: (input, onProgress, signal) => swapGifOnPool(pool, input, onProgress, signal),
      swapVideo: (input, onProgress, signal) => swapVideoOnPool(pool, input, onProgress, signal),
    },
  };
}

/**
 * A pool sized and configured from the settings, with the configured scan thresholds. `warmUp`
 * loads every thread's models (see `ComputePool.warmUp`).
 */
export function openCompute(config: Config): Compute & { warmUp(): Promise<{ render: number; quick: number }>; close(): Promise<void> } {
  const pool = new ComputePool({ threads: config.workerThreads });
  const thresholds = {
    porn: config.scan.thresholds.porn ?? DEFAULT_SCAN_THRESHOLDS.porn,
    hentai: config.scan.thresholds.hentai ?? DEFAULT_SCAN_THRESHOLDS.hentai,
    sexy: config.scan.thresholds.sexy ?? DEFAULT_SCAN_THRESHOLDS.sexy,
  };
  return { ...computeOnPool(pool, thresholds), warmUp: () => pool.warmUp(), close: () => pool.destroy() };
}
