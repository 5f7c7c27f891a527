import type { CreateSwapBody, PublicSwap } from '@doppel/contract';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Caller } from '../auth/authenticate';
import { chargeSteps } from '@doppel/core/accounts/credits';
import { cheapestPrice, priceSwap } from '@doppel/core/billing/pricing';
import type { Config } from '@doppel/core/config';
import type { InstanceLiveness } from '@doppel/core/db/instance-liveness';
import { PREPARED } from '@doppel/core/db/connect';
import type { Database } from '@doppel/core/db/schema';
import type { SwapInputs } from '@doppel/core/db/stored-inputs';
import { ApiError } from '@doppel/core/errors';
import { newId } from '@doppel/core/ids';
import type { FetchGuard } from '@doppel/core/media/fetch-guard';
import { fetchMedia, vetPublicUrl } from '../media/intake';
import { SOURCE_MEDIA, TARGET_MEDIA_BY_SWAP_TYPE } from '@doppel/core/media/sniff';
import { jobInsertStep, queues } from '@doppel/core/queue/boss';
import { swapJobGroup } from '@doppel/core/queue/render-groups';
import { inputKey } from '@doppel/core/storage/keys';
import { recordStoredFilesStep } from '@doppel/core/storage/stored-files';
import { toPublicSwap, type PublicSwapRow } from '@doppel/core/tasks/public-swap';
import { insertSwapStep } from '@doppel/core/tasks/swaps';
import { releaseCreateSlot, releaseSlotStep, reserveCreateSlot } from '@doppel/core/intake/concurrency';
import { createRefusal, settleCreateStep } from '@doppel/core/intake/settle-create';
import type { IntakeBudget } from './intake-budget';
import type { MediaMeasure } from '@doppel/core/db/stored-inputs';
import { measureMedia, STILL_KINDS } from './measure';
import { lookUpScans, requireCleanContent, scannedClean, type ScanGateDeps } from './scan-gate';
import { overQuota } from './storage-quota';

export interface CreateSwapDeps extends ScanGateDeps {
  guard: FetchGuard;
  config: Config;
  intakeBudget: IntakeBudget;
  instance: InstanceLiveness;
}

/** Every source URL the request names, with the field it came from. */
function sourceFields(body: CreateSwapBody): { field: string; url: string }[] {
  if ('face_swaps' in body && body.face_swaps) {
    return body.face_swaps.map((face, i) => ({ field: `face_swaps[${i}].source_url`, url: face.source_url }));
  }
  return 'source_url' in body && body.source_url ? [{ field: 'source_url', url: body.source_url }] : [];
}

/** Frame times must point inside the measured target, or no face could ever be found there. */
function requireTimesWithin(body: Extract<CreateSwapBody, { type: 'gif' | 'video' }>, duration: number): void {
  const times: [string, number | undefined][] = [['reference_frame_time_seconds', body.reference_frame_time_seconds]];
  if ('face_swaps' in body) body.face_swaps?.forEach((f, i) => times.push([`face_swaps[${i}].frame_time_seconds`, f.frame_time_seconds]));
  for (const [field, seconds] of times) {
    if (seconds !== undefined && seconds > duration) {
      throw new ApiError('validation_error', `${field}: ${seconds} s is past the end of the target (${duration.toFixed(2)} s).`);
    }
  }
}

function targetMaxBytes(config: Config, type: CreateSwapBody['type']): number {
  return type === 'gif' ? config.media.maxBytes.gif : type === 'video' ? config.media.maxBytes.video : config.media.maxBytes.image;
}

/**
 * POST /swaps behind the route: spec 4.3's rules in their order. The concurrent-create slot is
 * taken before anything else, and a balance too small for the cheapest such swap is refused with
 * it; both inputs are fetched through the guard, sniffed, size-checked, held to the engine's
 * limits and scanned; then, in one statement, the credits are charged, the swap row written and
 * its job queued, so a failure anywhere leaves neither a charge nor a task behind. `inTransaction`
 * writes more in the same transaction (the statement is then one of two).
 */
export async function createSwapTask(
  deps: CreateSwapDeps,
  caller: Caller,
  body: CreateSwapBody,
  options: { signal?: AbortSignal; inTransaction?: (trx: Transaction<Database>, swap: PublicSwap) => Promise<void> } = {},
): Promise<PublicSwap> {
  const mappedFaces = 'face_swaps' in body && body.face_swaps ? body.face_swaps.length : 1;
  // Fetching, scanning and measuring cost us far more than they cost the caller: a balance
  // that cannot pay for the cheapest swap of this shape is refused before any of it.
  const cheapest = cheapestPrice(body.type, mappedFaces);
  const slot = await reserveCreateSlot(deps.db, {
    apiKeyId: caller.apiKeyId,
    userId: caller.userId,
    cap: deps.config.rateLimit.concurrentCreates,
    minCredits: cheapest,
    quotaBytes: deps.config.storageQuotaBytes,
    ownerInstance: deps.instance.id,
  });
  if ('refused' in slot) {
    const cap = deps.config.rateLimit.concurrentCreates;
    switch (slot.refused) {
      case 'concurrent':
        throw new ApiError('rate_limited_concurrent', `This API key already has ${cap} swaps in flight; wait for one to finish.`, {
          headers: { 'retry-after': '5' },
        });
      case 'credits':
        throw new ApiError('insufficient_credits', `A ${body.type} swap costs at least ${cheapest} credits, more than the balance.`);
      case 'storage':
        // A full storage quota is refused before fetching; the exact check is in the transaction.
        throw overQuota(slot.storedBytes + 1, deps.config.storageQuotaBytes);
    }
  }
  const { reservation } = slot;
  const swapId = newId('swp');
  const stored: string[] = [];
  const share = deps.intakeBudget.open();
  try {
    const fetchOptions = { guard: deps.guard, timeoutMs: deps.config.media.fetchTimeoutMs, signal: options.signal, share };
    if (body.webhook_url) await vetPublicUrl({ url: body.webhook_url, field: 'webhook_url', ...fetchOptions });

    const sources = sourceFields(body);
    const distinctSources = [...new Map(sources.map((s) => [s.url, s])).values()];
    const [target, sourceMedia] = await Promise.all([
      fetchMedia({
        url: body.target_url,
        role: 'target',
        allowed: TARGET_MEDIA_BY_SWAP_TYPE[body.type],
        maxBytes: targetMaxBytes(deps.config, body.type),
        ...fetchOptions,
      }),
      Promise.all(
        distinctSources.map((s) =>
          fetchMedia({
            url: s.url,
            role: 'source',
            field: s.field,
            allowed: SOURCE_MEDIA,
            maxBytes: deps.config.media.maxBytes.image,
            ...fetchOptions,
          }),
        ),
      ),
    ]);
    const media = [target, ...sourceMedia];
    const fields = ['target_url', ...distinctSources.map((s) => s.field)];
    const keys = media.map((m, i) => inputKey(swapId, i === 0 ? 'target' : `source${i}`, m.kind));
    // The scans' verdicts, looked up once; an unseen input's copy for its scan is made later from
    // where the input is stored.
    const scans = await lookUpScans(
      deps.db,
      caller.userId,
      media.map((m, i) => ({ field: fields[i]!, storedAt: keys[i]!, ...m })),
    );

    // Limits come from headers and counted packets, before anything is stored or scanned. A
    // still image found clean has passed them already (the scan probes it the same way), and
    // needs no measure for pricing.
    const [measure = {}] = await Promise.all(
      media.map((m, i): MediaMeasure | Promise<MediaMeasure> =>
        STILL_KINDS.includes(m.kind) && scannedClean(scans, i) ? {} : measureMedia(fields[i]!, m.kind, m.bytes),
      ),
    );

    // Stored before the scan, so that bytes never scanned are written once: the scan's copy is
    // made from the stored input by the storage itself. Side by side; every write has settled
    // before a failure deletes them.
    stored.push(...keys);
    const writes = await Promise.allSettled(media.map((m, i) => deps.storage.put(keys[i]!, m.bytes, m.mimeType)));
    const failedWrite = writes.find((w) => w.status === 'rejected');
    if (failedWrite) throw failedWrite.reason;

    await requireCleanContent(deps, scans, options.signal);

    const declared = body.type === 'gif' || body.type === 'video' ? body : undefined;
    if (declared && measure.durationSeconds !== undefined) requireTimesWithin(declared, measure.durationSeconds);
    const cost = priceSwap({
      type: body.type,
      mappedFaces,
      durationSeconds: measure.durationSeconds ?? declared?.duration_seconds,
      width: measure.width,
      height: measure.height,
      fileSizeBytes: target.bytes.length,
    });

    const inputs: SwapInputs = {
      target: { key: keys[0]!, kind: target.kind, mimeType: target.mimeType, ...measure },
      sources: sourceMedia.map((m, i) => ({ key: keys[i + 1]!, kind: m.kind, mimeType: m.mimeType, url: distinctSources[i]!.url })),
    };
    const { type, target_url: _t, webhook_url, metadata, ...params } = body;

    // The job, the inputs' count toward the storage quota, the charge, the swap row and the
    // slot's release in one statement (one round trip), prepared: every create sends the same
    // text. Its last step refuses a create past the quota or unpaid, and then nothing of it stays.
    const charge = chargeSteps(caller.userId, swapId, cost);
    const files = media.map((m, i) => ({ key: keys[i]!, bytes: m.bytes.length }));
    const create = async (db: Kysely<Database>): Promise<PublicSwap> => {
      const { rows } = await sql<PublicSwapRow & { settled: boolean }>`${PREPARED}
        with ${charge.steps},
        job as (${jobInsertStep(queues.swap, { swapId }, { group: swapJobGroup(type, caller.userId) })}),
        released as (${releaseSlotStep(reservation)}),
        swap as (${insertSwapStep({
          id: swapId,
          api_key_id: caller.apiKeyId,
          user_id: caller.userId,
          type,
          status: 'queued',
          credit_cost: cost,
          updated_at: new Date(),
          metadata: metadata ? JSON.stringify(metadata) : null,
          webhook_url: webhook_url ?? null,
          params: JSON.stringify(params),
          inputs: JSON.stringify(inputs),
        })})
        select swap.*, ${settleCreateStep(charge.covered, recordStoredFilesStep(caller.userId, files), deps.config.storageQuotaBytes)} as settled
        from swap`.execute(db);
      const { settled: _settled, ...row } = rows[0]!;
      return toPublicSwap(row);
    };
    const { inTransaction } = options;
    try {
      // A transaction only when the caller writes more with the create (the Idempotency-Key's answer).
      return inTransaction
        ? await deps.db.transaction().execute(async (trx) => {
            const swap = await create(trx);
            await inTransaction(trx, swap);
            return swap;
          })
        : await create(deps.db);
    } catch (error) {
      const refusal = createRefusal(error);
      if (refusal?.refused === 'storage') throw overQuota(refusal.storedBytes, deps.config.storageQuotaBytes);
      if (refusal?.refused === 'credits') throw new ApiError('insufficient_credits', `This swap costs ${cost} credits, more than the balance.`);
      throw error;
    }
  } catch (error) {
    await deps.storage.delete(stored).catch(() => {});
    // Also when the database is down right now: the error below is the answer either way.
    deps.instance.releaseSoon(() => releaseCreateSlot(deps.db, reservation));
    throw error;
  } finally {
    share.release();
  }
}
