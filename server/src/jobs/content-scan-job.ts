import type { Job } from 'pg-boss';
import type { Db } from '../db/connect';
import type { ContentScanJob } from '../intake/scan-gate';
import { queues } from '../queue/boss';
import type { Storage } from '../storage/storage';
import type { MediaKind } from '../media/sniff';

export interface ContentScanDeps {
  db: Db;
  storage: Storage;
  scan(input: { bytes: Buffer; kind: MediaKind }): Promise<{ verdict: 'clean' | 'flagged'; scores: Record<string, number>; reason?: string }>;
}

/**
 * Scans one input's bytes and records the verdict under their hash; the trigger on
 * content_scans wakes the create that is waiting for it. The copy made for the scan is
 * deleted once the verdict is in. A scan that keeps failing is marked failed on its last
 * attempt, so the next create that needs it queues a fresh one.
 */
export async function runContentScanJob(deps: ContentScanDeps, job: Job<ContentScanJob>): Promise<void> {
  const row = await deps.db
    .selectFrom('content_scans')
    .selectAll()
    .where('sha256', '=', job.data.sha256)
    .executeTakeFirst();
  if (!row || row.status !== 'pending') return;
  try {
    const bytes = await deps.storage.get(row.storage_key);
    const result = await deps.scan({ bytes, kind: row.media_kind as MediaKind });
    await deps.db
      .updateTable('content_scans')
      .set({ status: result.verdict, scores: JSON.stringify(result.scores), reason: result.reason ?? null, completed_at: new Date() })
      .where('sha256', '=', row.sha256)
      .where('status', '=', 'pending')
      .execute();
    await deps.storage.delete([row.storage_key]);
  } catch (error) {
    if (job.retryCount < queues.contentScan.retryLimit) throw error;
    await deps.db
      .updateTable('content_scans')
      .set({ status: 'failed', reason: (error as Error).message, completed_at: new Date() })
      .where('sha256', '=', row.sha256)
      .execute();
  }
}
