import { EngineError } from '@doppel/engine';
import type { Job, PgBoss } from 'pg-boss';
import type { Db } from '@doppel/core/db/connect';
import type { SwapRow } from '@doppel/core/db/schema';
import type { SwapJob } from '@doppel/core/queue/payloads';
import { queues } from '@doppel/core/queue/boss';
import { resultKey } from '@doppel/core/storage/keys';
import type { Storage } from '@doppel/core/storage/storage';
import { claimSwap, readSwap, startSwapProcessing } from '@doppel/core/tasks/swaps';
import { completeSwap, failSwap } from '@doppel/core/tasks/finish-swap';
import { progressWriter } from './progress-writer';
import { retireSwapInputs } from './retire-inputs';
import { renderSwap, type Rendered, type SwapEngine } from './render-swap';

export interface SwapDeps {
  db: Db;
  boss: PgBoss;
  storage: Storage;
  engine: SwapEngine;
}

export const INTERNAL_FAILURE = 'The swap failed on our side after several attempts; its credits were refunded.';

/**
 * Picks the swap up unless a cancel got there first: queued -> preparing is a conditional
 * update, like the cancel. A retried job (its worker died) finds the swap in preparing or
 * processing and runs it again from the stored inputs.
 */
async function pickUp(db: Db, swapId: string): Promise<SwapRow | undefined> {
  const claimed = await claimSwap(db, swapId);
  if (claimed) return claimed;
  const row = await readSwap(db, swapId);
  return row && (row.status === 'preparing' || row.status === 'processing') ? row : undefined;
}

/**
 * preparing -> processing, or the swap as it is when it is already processing: an earlier attempt
 * that lost this job (its heartbeat lapsed) may have moved it there and died since, and this
 * attempt now holds the job. Undefined only when the swap was canceled (or ended) meanwhile.
 */
async function enterProcessing(db: Db, swapId: string): Promise<SwapRow | undefined> {
  const started = await startSwapProcessing(db, swapId);
  if (started) return started;
  const row = await readSwap(db, swapId);
  return row?.status === 'processing' ? row : undefined;
}

/** Stores the result and ends the swap done; a result no swap ended with is deleted again. */
async function storeResult(deps: SwapDeps, swapId: string, result: Rendered): Promise<void> {
  const key = resultKey(swapId, result.kind);
  await deps.storage.put(key, result.bytes, result.mimeType);
  // Another attempt may have finished first, or the swap was failed meanwhile; either way
  // nothing points at this copy, and retention would never find it.
  const stored = { url: deps.storage.publicUrl(key), key, bytes: result.bytes.length };
  const completed = await completeSwap(deps.db, deps.boss, swapId, stored).catch(async (error: unknown) => {
    await deps.storage.delete([key]);
    throw error;
  });
  if (!completed) await deps.storage.delete([key]);
}

/**
 * queued -> preparing -> processing -> done, or failed with a reason and a refund. The inputs
 * are retired once the swap has ended; a job that throws (to be retried) keeps them.
 */
export async function runSwapJob(deps: SwapDeps, job: Job<SwapJob>): Promise<void> {
  await processSwap(deps, job);
  await retireSwapInputs(deps.db, deps.storage, job.data.swapId);
}

async function processSwap(deps: SwapDeps, job: Job<SwapJob>): Promise<void> {
  const { db, boss, storage } = deps;
  const swapId = job.data.swapId;
  const picked = await pickUp(db, swapId);
  if (!picked) return;

  try {
    const { inputs } = picked;
    const target = await storage.get(inputs.target.key);
    const sources = new Map<string, Buffer>();
    for (const source of inputs.sources) sources.set(source.url, await storage.get(source.key));

    const row = picked.status === 'processing' ? picked : await enterProcessing(db, swapId);
    if (!row) return; // canceled while its inputs were loading

    const progress = progressWriter(db, swapId);
    const result = await renderSwap(deps.engine, row, target, sources, progress.report, job.signal);
    await progress.flush();
    await storeResult(deps, swapId, result);
  } catch (error) {
    if (error instanceof EngineError) return void (await failSwap(db, boss, swapId, error.message));
    if (job.retryCount < queues.swap.retryLimit) throw error;
    await failSwap(db, boss, swapId, INTERNAL_FAILURE);
  }
}
