import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { PREPARED, type Db } from '../db/connect';
import type { ContentScansTable, Database } from '../db/schema';
import type { MediaKind } from '../media/sniff';
import { liveJobExists, queues } from '../queue/boss';

// The one module that reads and writes the `content_scans` table: verdicts per user and bytes
// (`scanId`), written by the scan job, read by the create waiting on them, and dropped by
// maintenance once unused for the retention period; maintenance also fails scans whose job is lost.

export type ScanStatus = ContentScansTable['status'];

/**
 * What a verdict is cached under: the user and the bytes. A cache shared by every user would
 * tell one whether another had uploaded a file (its verdict would come at once, or be the one
 * already there); per user, the first create of any bytes goes through the same scan and wait
 * whoever else sent them. The price is one scan per user of bytes several users send.
 */
export const scanId = (userId: string, bytes: Buffer) =>
  createHash('sha256').update(`${userId}:${createHash('sha256').update(bytes).digest('hex')}`).digest('hex');

/**
 * The statuses of these hashes' scans, for those that have one (one prepared statement for a
 * create's inputs). Looking a verdict up is using it: its `last_used_at` moves to now when it is
 * a day old or older, so a verdict in constant use costs one write a day, and retention
 * (pruneUnusedScans) drops only verdicts that no create has needed for a while.
 */
export async function scanStatuses(db: Db, hashes: string[]): Promise<Map<string, ScanStatus>> {
  const rows = await db
    .with('used', (q) =>
      q
        .updateTable('content_scans')
        .set({ last_used_at: sql<Date>`now()` })
        .where('sha256', 'in', hashes)
        .where('last_used_at', '<=', sql<Date>`now() - interval '1 day'`),
    )
    .selectFrom('content_scans')
    .modifyFront(PREPARED)
    .select(['sha256', 'status'])
    .where('sha256', 'in', hashes)
    .execute();
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

/**
 * Drops the verdicts no create has looked up for `days` days (to the day: see scanStatuses); the
 * next create of those bytes scans them afresh. Scans still pending are left to their job.
 */
export async function pruneUnusedScans(db: Db, days: number): Promise<number> {
  const result = await db
    .deleteFrom('content_scans')
    .where('last_used_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .where('status', '<>', 'pending')
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Scans still pending that no job will ever give a verdict: none of the content-scan jobs of
 * them is queued, waiting for a retry or running. A claim commits with its job, and a job ends
 * only after recording a verdict or `failed`; so such a scan's job died with its worker or the
 * database on its last attempt, or was deleted (pg-boss drops jobs left queued past its retention).
 */
export function findLostScans(db: Db, limit: number): Promise<{ sha256: string; storage_key: string }[]> {
  return db
    .selectFrom('content_scans as s')
    .select(['s.sha256', 's.storage_key'])
    .where('s.status', '=', 'pending')
    .where(({ not }) => not(liveJobExists([queues.contentScan.name], 'sha256', sql.ref('s.sha256'))))
    .limit(limit)
    .execute();
}
