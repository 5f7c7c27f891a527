import type { Db } from '@doppel/core/db/connect';
import { findLostScans, recordScan } from '@doppel/core/scans/content-scans';
import type { Storage } from '@doppel/core/storage/storage';

/** Scans per batch: one storage call each; batches run until none is left. */
const BATCH = 500;

/**
 * Scans left pending by a job that is gone (findLostScans): every create of their bytes would
 * wait for them and answer "still being scanned" for ever. Each ends as a scan whose job gave up
 * does, `failed`, so the next create of those bytes scans them afresh. Its copy under `scans/`
 * is deleted first: once the scan has failed, that create writes a fresh copy under the same key.
 * The copy was never counted in its user's stored bytes, so the count stands.
 */
export async function failLostScans(db: Db, storage: Storage): Promise<void> {
  for (;;) {
    const lost = await findLostScans(db, BATCH);
    if (lost.length === 0) return;
    await storage.delete(lost.map((scan) => scan.storage_key));
    for (const scan of lost) await recordScan(db, scan.sha256, { status: 'failed', reason: 'the scan job was lost' });
  }
}
