import type { ErrorCode } from '@doppel/contract';
import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import stringify from 'safe-stable-stringify';
import type { Db } from '../db/connect';
import type { Database } from '../db/schema';
import { ApiError } from '../errors';

/** A claim left in flight this long belongs to a process that died; a retry may take it over. */
const ABANDONED_AFTER_MS = 5 * 60_000;
const POLL_MS = 100;

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type Claim = { kind: 'owner' } | { kind: 'replay'; response: StoredResponse };

/** Same body, same hash, whatever the order of its keys. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(stringify(body) ?? '').digest('hex');
}

/**
 * Claims an Idempotency-Key for one create. The first caller owns it and must later call
 * `finishIdempotentCreate` or `releaseIdempotencyKey`; a caller arriving while the owner is still
 * working waits for it and then replays its response; a key reused with another body is refused.
 */
export async function claimIdempotencyKey(
  db: Db,
  apiKeyId: string,
  key: string,
  hash: string,
  options: { maxWaitMs: number; signal?: AbortSignal },
): Promise<Claim> {
  const deadline = Date.now() + options.maxWaitMs;
  for (;;) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({ api_key_id: apiKeyId, key, request_hash: hash })
      .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { kind: 'owner' };

    const row = await db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'response_status', 'response_body', 'created_at'])
      .where('api_key_id', '=', apiKeyId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) continue;
    if (row.request_hash !== hash) {
      throw new ApiError('validation_error', 'Idempotency-Key was already used with a different request body.');
    }
    if (row.response_status !== null) return { kind: 'replay', response: { status: row.response_status, body: row.response_body } };
    if (Date.now() - row.created_at.getTime() > ABANDONED_AFTER_MS) {
      await releaseIdempotencyKey(db, apiKeyId, key);
      continue;
    }
    if (Date.now() > deadline || options.signal?.aborted) {
      throw new ApiError('api_temporarily_disabled', 'A request with this Idempotency-Key is still being processed.', {
        headers: { 'retry-after': '5' },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Refusals that the same request may get past later without changing anything: over the
 * concurrent cap (spec: "wait for a swap to finish") and media that could not be fetched (the
 * host may be down for a moment). They free the key like server errors do, instead of being
 * replayed for the whole retention window.
 */
const PASSING_REFUSALS: ReadonlySet<ErrorCode> = new Set(['rate_limited_concurrent', 'source_unreachable']);

/** Whether a create's error is its final answer, replayed to every retry with the same key. */
export function isFinalRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status < 500 && !PASSING_REFUSALS.has(error.code);
}

/** Records the final response, in the transaction that made it true (or on its own for errors). */
export async function finishIdempotentCreate(
  db: Db | Transaction<Database>,
  apiKeyId: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ response_status: response.status, response_body: JSON.stringify(response.body) })
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key)
    .execute();
}

/** Forgets a claim, so a retry runs the create afresh (after internal errors and 503s). */
export async function releaseIdempotencyKey(db: Db, apiKeyId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key)
    .where('response_status', 'is', null)
    .execute();
}

/** Deletes keys past the retention window; run by the maintenance schedule. */
export async function pruneIdempotencyKeys(db: Db, retentionHours: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${retentionHours})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
