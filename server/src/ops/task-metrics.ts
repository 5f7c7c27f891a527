import { sql } from 'kysely';
import { Gauge } from 'prom-client';
import type { Db } from '@doppel/core/db/connect';
import { BOSS_SCHEMA, queues } from '@doppel/core/queue/boss';
import { countFaceDetectTasks } from '@doppel/core/tasks/face-detect-tasks';
import { countSwaps } from '@doppel/core/tasks/swaps';
import type { Metrics } from './metrics';

/** How long one reading of the database's figures serves scrapes: counting rows is not free. */
const TASK_METRICS_TTL_MS = 10_000;

/** `load`, run at most once per `ttlMs`: calls in between share the last reading. */
function cached<T>(ttlMs: number, load: () => Promise<T>): () => Promise<T> {
  let reading: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!reading || Date.now() - reading.at >= ttlMs) {
      const value = load();
      reading = { at: Date.now(), value };
      // A failed reading is not kept: the next scrape tries again.
      value.catch(() => (reading = undefined));
    }
    return reading.value;
  };
}

/**
 * Task and queue figures, read from PostgreSQL when /metrics is scraped (at most once per
 * TASK_METRICS_TTL_MS): every process sees the same numbers whichever process did the work, and
 * nothing is counted twice.
 */
export function registerTaskMetrics(metrics: Metrics, db: Db): void {
  const registers = [metrics.registry];
  const swapCounts = cached(TASK_METRICS_TTL_MS, () => countSwaps(db));
  const detectionCounts = cached(TASK_METRICS_TTL_MS, () => countFaceDetectTasks(db));
  // Counted live: pg-boss's own queue statistics are refreshed only by its monitor.
  const jobCounts = cached(TASK_METRICS_TTL_MS, async () => {
    const { rows } = await sql<{ name: string; active: boolean; count: string }>`
      select name, state = 'active' as active, count(*) as count
      from ${sql.table(`${BOSS_SCHEMA}.job`)}
      where state in ('created', 'retry', 'active')
      group by name, state = 'active'`.execute(db);
    return rows;
  });
  new Gauge({
    name: 'doppel_swaps',
    help: 'Swaps kept (within retention), by type and status.',
    labelNames: ['type', 'status'] as const,
    registers,
    async collect() {
      const rows = await swapCounts();
      this.reset();
      for (const row of rows) this.set({ type: row.type, status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'doppel_face_detections',
    help: 'Face-detection tasks kept (within retention), by status.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const rows = await detectionCounts();
      this.reset();
      for (const row of rows) this.set({ status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'doppel_queue_jobs',
    help: 'Jobs per queue waiting (queued) and running (active).',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      const rows = await jobCounts();
      this.reset();
      for (const { name } of Object.values(queues)) {
        this.set({ queue: name, state: 'queued' }, 0);
        this.set({ queue: name, state: 'active' }, 0);
      }
      for (const row of rows) this.inc({ queue: row.name, state: row.active ? 'active' : 'queued' }, Number(row.count));
    },
  });
}
