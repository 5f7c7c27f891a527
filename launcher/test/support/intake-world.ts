import { ComputePool, DEFAULT_SCAN_THRESHOLDS, type ScanThresholds } from '@doppel/engine';
import type { TestApp, TestAppOptions } from '@doppel/server/testing/app';
import { startIntakeWorld as startApiWorld, type IntakeWorld as ApiWorld } from '@doppel/server/testing/intake-world';
import type { MediaRoute } from '@doppel/core/testing/media-server';
import { computeOnPool, startWorkers, type WorkerDeps } from '@doppel/worker';

export { demoPhoto, sendBytes, TEST_NAMES } from '@doppel/server/testing/intake-world';

export interface EngineAppOptions extends TestAppOptions {
  /** Runs the job workers in the app's process with the real content classifier (these thresholds, if given). */
  scan?: boolean | ScanThresholds;
  /** Runs the job workers with the whole engine (scans, face detection, swaps), so tasks really get processed. */
  engine?: boolean;
  /** Runs the job workers with this compute instead. */
  compute?: WorkerDeps['compute'];
}

export interface IntakeWorld extends Omit<ApiWorld, 'startApp'> {
  startApp(options?: EngineAppOptions): Promise<TestApp>;
}

/**
 * The server's intake world (loopback media and DoH servers behind the real guard) whose apps can
 * also run the worker in their process, on a real engine pool of one thread.
 */
export async function startIntakeWorld(routes: Record<string, MediaRoute>): Promise<IntakeWorld> {
  const world = await startApiWorld(routes);
  const pools: ComputePool[] = [];
  return {
    ...world,
    async startApp({ scan, engine, compute, ...options } = {}) {
      if (!compute && (scan || engine)) {
        const pool = new ComputePool({ threads: 1 });
        pools.push(pool);
        const full = computeOnPool(pool, typeof scan === 'object' ? scan : DEFAULT_SCAN_THRESHOLDS);
        compute = engine ? full : { scan: full.scan };
      }
      return world.startApp({
        ...options,
        worker: compute ? (parts) => startWorkers({ ...parts, compute }) : options.worker,
      });
    },
    async close() {
      await Promise.all(pools.map((p) => p.destroy()));
      await world.close();
    },
  };
}
