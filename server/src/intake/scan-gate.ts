import type { PgBoss } from 'pg-boss';
import type { Config } from '@doppel/core/config';
import type { Db } from '@doppel/core/db/connect';
import { ApiError } from '@doppel/core/errors';
import { queues, sendJob } from '@doppel/core/queue/boss';
import type { Notifications } from '@doppel/core/queue/notifications';
import type { Storage } from '@doppel/core/storage/storage';
import type { MediaKind } from '@doppel/core/media/sniff';
import { claimScan, scanId, scanStatus, scanStatuses } from '@doppel/core/scans/content-scans';
import { scanKey } from '@doppel/core/storage/keys';

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

async function verdictOf(db: Db, sha256: string): Promise<Verdict | undefined> {
  return asVerdict(await scanStatus(db, sha256));
}

/** Queues a scan of bytes never scanned, or whose scan failed (then it is tried afresh). */
async function requestScan(deps: ScanGateDeps, sha256: string, input: ScanInput): Promise<void> {
  const storageKey = scanKey(sha256, input.kind);
  if (input.storedAt) await deps.storage.copy(input.storedAt, storageKey);
  else await deps.storage.put(storageKey, input.bytes, input.mimeType);
  await deps.db.transaction().execute(async (trx) => {
    if (await claimScan(trx, { sha256, kind: input.kind, storageKey })) await sendJob(deps.boss, trx, queues.contentScan.name, { sha256 });
  });
}
