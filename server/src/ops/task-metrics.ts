import { sql } from 'kysely';
import { Gauge } from 'prom-client';
import type { Db } from '../db/connect';
import { BOSS_SCHEMA, queues } from '../queue/boss';
import type { Metrics } from './metrics';

/**
 * Task and queue figures, read from PostgreSQL when /metrics is scraped: every process sees the
 * same numbers whichever process did the work, and nothing is counted twice.
 */
export function registerTaskMetrics(metrics: Metrics, db: Db): void {
  const registers = [metrics.registry];
  new Gauge({
    name: 'doppel_swaps',
    help: 'Swaps kept (within retention), by type and status.',
    labelNames: ['type', 'status'] as const,
    registers,
    async collect() {
      const rows = await db
        .selectFrom('swaps')
        .select(['type', 'status', (eb) => eb.fn.countAll<string>().as('count')])
        .groupBy(['type', 'status'])
        .execute();
      this.reset();
      for (const row of rows) this.set({ type: row.type, status: row.status }, Number(row.count));
    },
  });
  new Gauge({
    name: 'doppel_face_detections',
    help: 'Face-detection tasks kept (within retention), by status.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const rows = await db
        .selectFrom('face_detect_tasks')
        .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
        .groupBy('status')
        .execute();
      this.reset();
      for (const row of rows) this.set({ status: row.status }, Number(row.count));
    },
  });
  new Gauge({
    name: 'doppel_queue_jobs',
    help: 'Jobs per queue waiting (queued) and running (active).',
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      // Counted live: pg-boss's own queue statistics are refreshed only by its monitor.
      const { rows } = await sql<{ name: string; active: boolean; count: string }>`
        select name, state = 'active' as active, count(*) as count
        from ${sql.table(`${BOSS_SCHEMA}.job`)}
        where state in ('created', 'retry', 'active')
        group by name, state = 'active'`.execute(db);
      this.reset();
      for (const { name } of Object.values(queues)) {
        this.set({ queue: name, state: 'queued' }, 0);
        this.set({ queue: name, state: 'active' }, 0);
      }
      for (const row of rows) this.inc({ queue: row.name, state: row.active ? 'active' : 'queued' }, Number(row.count));
    },
  });
}
