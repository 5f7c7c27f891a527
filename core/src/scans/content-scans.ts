import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import { PREPARED, type Db } from '../db/connect';
import type { ContentScansTable, Database } from '../db/schema';
import type { MediaKind } from '../media/sniff';

// The one module that reads and writes the `content_scans` table: verdicts per user and bytes
// (`scanId`), written by the scan job and read by the create waiting on them.

export type ScanStatus = ContentScansTable['status'];

/**
 * What a verdict is cached under: the user and the bytes. A cache shared by every user would
 * tell one whether another had uploaded a file (its verdict would come at once, or be the one
 * already there); per user, the first create of any bytes goes through the same scan and wait
 * whoever else sent them. The price is one scan per user of bytes several users send.
 */
export const scanId = (userId: string, bytes: Buffer) =>
  createHash('sha256').update(`${userId}:${createHash('sha256').update(bytes).digest('hex')}`).digest('hex');

/** The statuses of these hashes' scans, for those that have one (one prepared query for a create's inputs). */
export async function scanStatuses(db: Db, hashes: string[]): Promise<Map<string, ScanStatus>> {
  const rows = await db.selectFrom('content_scans').modifyFront(PREPARED).select(['sha256', 'status']).where('sha256', 'in', hashes).execute();
  return new Map(rows.map((row) => [row.sha256, row.status]));
}

export async function scanStatus(db: Db, sha256: string): Promise<ScanStatus | undefined> {
  const row = await db.selectFrom('content_scans').select('status').where('sha256', '=', sha256).executeTakeFirst();
  return row?.status;
}

/**
 * Claims the scan of these bytes: a new pending row, or a failed one made pending again (tried
 * afresh). False when another create's scan is pending or already has its verdict.
 */
export async function claimScan(
  trx: Transaction<Database>,
  scan: { sha256: string; kind: MediaKind; storageKey: string },
): Promise<boolean> {
  const claimed = await trx
    .insertInto('content_scans')
    .values({ sha256: scan.sha256, status: 'pending', media_kind: scan.kind, storage_key: scan.storageKey })
    .onConflict((oc) =>
      oc.column('sha256').doUpdateSet({ status: 'pending', storage_key: scan.storageKey }).where('content_scans.status', '=', 'failed'),
    )
    .returning('sha256')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** The scan still waiting for its verdict, or undefined when it has one (or there is none). */
export function pendingScan(db: Db, sha256: string) {
  return db.selectFrom('content_scans').selectAll().where('sha256', '=', sha256).where('status', '=', 'pending').executeTakeFirst();
}

/** Records a pending scan's verdict (the trigger on the table wakes the waiting create). */
export async function recordScan(
  db: Db,
  sha256: string,
  outcome: { status: Exclude<ScanStatus, 'pending'>; reason: string | null; scores?: Record<string, number> },
): Promise<void> {
  await db
    .updateTable('content_scans')
    .set({ status: outcome.status, scores: outcome.scores ? JSON.stringify(outcome.scores) : null, reason: outcome.reason, completed_at: new Date() })
    .where('sha256', '=', sha256)
    .where('status', '=', 'pending')
    .execute();
}
