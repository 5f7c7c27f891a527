import { createHash } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { Config } from '../config';
import { PREPARED, type Db } from '../db/connect';
import { ApiError } from '../errors';
import { queues, sendJob } from '../queue/boss';
import type { Notifications } from '../queue/notifications';
import type { Storage } from '../storage/storage';
import type { MediaKind } from '../media/sniff';
import { scanKey } from '../storage/keys';

export interface ScanInput {
  /** Request field, for the error message ("target_url"). */
  field: string;
  bytes: Buffer;
  kind: MediaKind;
  mimeType: string;
  /** Where these bytes are already stored, if they are: the scan's copy is made from there. */
  storedAt?: string;
}

export interface ScanGateDeps {
  db: Db;
  boss: PgBoss;
  storage: Storage;
  notifications: Notifications;
  config: Pick<Config, 'scan'>;
}

/** What one look at the recorded scans said about a create's inputs. */
export interface ScanLookup {
  /** The scan id (`scanId`: the user and the bytes) of each input, in the order they were given. */
  readonly hashes: readonly string[];
  /** The inputs by scan id (the same bytes named twice are scanned once). */
  readonly inputs: Map<string, ScanInput>;
  /** The status of every scan already recorded, by scan id. */
  readonly known: Map<string, string>;
}

/** One look at every input's scan: a verdict already given needs neither a scan nor a wait. */
export async function lookUpScans(db: Db, userId: string, inputs: ScanInput[]): Promise<ScanLookup> {
  const hashes = inputs.map((input) => scanId(userId, input.bytes));
  const byHash = new Map(hashes.map((sha256, i) => [sha256, inputs[i]!]));
  return { hashes, inputs: byHash, known: await scanStatuses(db, [...byHash.keys()]) };
}

/** Whether the input at `index` was already scanned and found clean (and so within the engine's limits). */
export const scannedClean = (lookup: ScanLookup, index: number): boolean => lookup.known.get(lookup.hashes[index]!) === 'clean';

/**
 * What a verdict is cached under: the user and the bytes. A cache shared by every user would
 * tell one whether another had uploaded a file (its verdict would come at once, or be the one
 * already there); per user, the first create of any bytes goes through the same scan and wait
 * whoever else sent them. The price is one scan per user of bytes several users send.
 */
export const scanId = (userId: string, bytes: Buffer) =>
  createHash('sha256').update(`${userId}:${createHash('sha256').update(bytes).digest('hex')}`).digest('hex');

/**
 * Spec 4.3 rule 3: every input must have a clean verdict before anything is charged. Verdicts
 * are cached per user and bytes (`scanId`, see lookUpScans); unseen bytes are copied to `scans/`
 * (by the storage, from where the create stored them) and handed to the content-scan queue, and
 * the create waits for the verdict up to a short budget. Still scanning then:
 * api_temporarily_disabled with Retry-After, and the retry finds the cached verdict.
 */
export async function requireCleanContent(deps: ScanGateDeps, lookup: ScanLookup, signal?: AbortSignal): Promise<void> {
  const { inputs: pending, known } = lookup;
  for (const [sha256, input] of pending) {
    const status = known.get(sha256);
    if (status === undefined || status === 'failed') await requestScan(deps, sha256, input);
  }

  const verdicts = await Promise.all(
    [...pending.keys()].map((sha256) =>
      asVerdict(known.get(sha256)) ??
      deps.notifications.waitFor('doppel_scan', sha256, () => verdictOf(deps.db, sha256), {
        timeoutMs: deps.config.scan.waitSeconds * 1000,
        signal,
      }),
    ),
  );
  const inputsWith = (verdict: Verdict) => [...pending.values()].filter((_, i) => verdicts[i] === verdict).map((input) => input.field);
  const flagged = inputsWith('flagged');
  if (flagged.length > 0) {
    throw new ApiError('nsfw_content_detected', `${flagged.join(' and ')} ${flagged.length > 1 ? 'were' : 'was'} flagged by the content analyser.`);
  }
  // What cannot be decoded cannot be scanned, and is never swapped unscanned.
  const undecodable = inputsWith('undecodable');
  if (undecodable.length > 0) {
    throw new ApiError('unsupported_media_type', `${undecodable.join(' and ')}: the file cannot be decoded (damaged or incomplete).`);
  }
  const tooLarge = inputsWith('too_large');
  if (tooLarge.length > 0) {
    throw new ApiError('payload_too_large', `${tooLarge.join(' and ')}: the media is over the size or length limits.`);
  }
  if (verdicts.some((v) => v === undefined)) {
    throw new ApiError('api_temporarily_disabled', 'The inputs are still being scanned; retry shortly.', {
      headers: { 'retry-after': String(deps.config.scan.retryAfterSeconds) },
    });
  }
}

type Verdict = 'clean' | 'flagged' | 'undecodable' | 'too_large';

const asVerdict = (status: string | undefined): Verdict | undefined =>
  status === 'clean' || status === 'flagged' || status === 'undecodable' || status === 'too_large' ? status : undefined;

async function scanStatuses(db: Db, hashes: string[]): Promise<Map<string, string>> {
  const rows = await db.selectFrom('content_scans').modifyFront(PREPARED).select(['sha256', 'status']).where('sha256', 'in', hashes).execute();
  return new Map(rows.map((row) => [row.sha256, row.status]));
}

async function verdictOf(db: Db, sha256: string): Promise<Verdict | undefined> {
  const row = await db.selectFrom('content_scans').select('status').where('sha256', '=', sha256).executeTakeFirst();
  return asVerdict(row?.status);
}

/** Queues a scan of bytes never scanned, or whose scan failed (then it is tried afresh). */
async function requestScan(deps: ScanGateDeps, sha256: string, input: ScanInput): Promise<void> {
  const storageKey = scanKey(sha256, input.kind);
  if (input.storedAt) await deps.storage.copy(input.storedAt, storageKey);
  else await deps.storage.put(storageKey, input.bytes, input.mimeType);
  await deps.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('content_scans')
      .values({ sha256, status: 'pending', media_kind: input.kind, storage_key: storageKey })
      .onConflict((oc) =>
        oc.column('sha256').doUpdateSet({ status: 'pending', storage_key: storageKey }).where('content_scans.status', '=', 'failed'),
      )
      .returning('sha256')
      .executeTakeFirst();
    if (claimed) await sendJob(deps.boss, trx, queues.contentScan.name, { sha256 });
  });
}
