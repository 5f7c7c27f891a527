import { EngineError } from '@doppel/engine';
import type { Job } from 'pg-boss';
import type { Db } from '@doppel/core/db/connect';
import type { ContentScanJob } from '@doppel/core/queue/payloads';
import { queues } from '@doppel/core/queue/boss';
import { pendingScan, recordScan } from '@doppel/core/scans/content-scans';
import type { Storage } from '@doppel/core/storage/storage';
import type { MediaKind } from '@doppel/core/media/sniff';

export interface ContentScanDeps {
  db: Db;
  storage: Storage;
  scan(input: { bytes: Buffer; kind: MediaKind }): Promise<{ verdict: 'clean' | 'flagged'; scores: Record<string, number>; reason?: string }>;
}

/**
 * Scans one input's bytes and records the verdict under their hash; the trigger on
 * content_scans wakes the create that is waiting for it. The copy made for the scan is
 * deleted once the verdict is in. Bytes that cannot be decoded get the final verdict
 * `undecodable` at once, and media over the caps (measured, whatever its header says) the final
 * verdict `too_large`: no retry would change either. A scan that keeps failing otherwise is marked
 * failed on its last attempt, so the next create that needs it queues a fresh one.
 */
export async function runContentScanJob(deps: ContentScanDeps, job: Job<ContentScanJob>): Promise<void> {
  const row = await pendingScan(deps.db, job.data.sha256);
  if (!row) return;
  const record = (outcome: Parameters<typeof recordScan>[2]) => recordScan(deps.db, row.sha256, outcome);
  try {
    const bytes = await deps.storage.get(row.storage_key);
    const result = await deps.scan({ bytes, kind: row.media_kind });
    await record({ status: result.verdict, scores: result.scores, reason: result.reason ?? null });
  } catch (error) {
    if (error instanceof EngineError && error.reason === 'undecodable_input') {
      await record({ status: 'undecodable', reason: error.message });
    } else if (error instanceof EngineError && error.reason === 'media_too_large') {
      await record({ status: 'too_large', reason: error.message });
    } else if (job.retryCount < queues.contentScan.retryLimit) {
      throw error;
    } else {
      await record({ status: 'failed', reason: (error as Error).message });
    }
  }
  await deps.storage.delete([row.storage_key]);
}
