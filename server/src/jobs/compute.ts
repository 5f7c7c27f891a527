import { ComputePool, DEFAULT_SCAN_THRESHOLDS, unwrap, swapWithProgress } from '@doppel/worker';
import type { Config } from '../config';
import type { WorkerDeps } from './start-workers';

/** The engine's thread pool, shaped as the job handlers use it, with the configured thresholds. */
export function openCompute(config: Config): Required<WorkerDeps['compute']> & { close(): Promise<void> } {
  const pool = new ComputePool({ threads: config.workerThreads });
  const thresholds = {
    porn: config.scan.thresholds.porn ?? DEFAULT_SCAN_THRESHOLDS.porn,
    hentai: config.scan.thresholds.hentai ?? DEFAULT_SCAN_THRESHOLDS.hentai,
    sexy: config.scan.thresholds.sexy ?? DEFAULT_SCAN_THRESHOLDS.sexy,
  };
  return {
    scan: (input) => pool.run('scan', { ...input, thresholds }),
    detect: async (bytes) => unwrap(await pool.run('detect', { bytes })),
    swapImage: (input, onProgress) => swapWithProgress(pool, input, onProgress),
    close: () => pool.destroy(),
  };
}
