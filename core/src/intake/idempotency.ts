import type { ErrorCode } from '@doppel/contract';
import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import stringify from 'safe-stable-stringify';
import type { Db } from '../db/connect';
import { ownerAlive } from '../db/instance-liveness';
import type { Database } from '../db/schema';
import { ApiError } from '../errors';
import { randomToken } from '../random-token';

const POLL_MS = 100;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** `token` fences the claim: only its holder can finish or release it. */
export type Claim = { kind: 'owner'; token: string } | { kind: 'replay'; response: StoredResponse };

/** Which Idempotency-Key, held by whom. */
export interface ClaimRef {
  apiKeyId: string;
  key: string;
  token: string;
}

const newToken = () => randomToken(12);

/** Same body, same hash, whatever the order of its keys. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(stringify(body) ?? '').digest('hex');
}

/**
 * Claims an Idempotency-Key for one create. The first caller owns it and must later call
 * `finishIdempotentCreate` or `releaseIdempotencyKey`; a caller arriving while the owner is still
 * working waits for it and then replays its response; a key reused with another body is refused.
 * A claim whose owning process is gone (crashed, killed) is taken over at once under a new token.
 */
export async function claimIdempotencyKey(
  db: Db,
  ref: { apiKeyId: string; key: string; ownerInstance: number },
  hash: string,
  options: { maxWaitMs: number; signal?: AbortSignal },
): Promise<Claim> {
  const { apiKeyId, key, ownerInstance } = ref;
  const deadline = Date.now() + options.maxWaitMs;
  for (;;) {
    const token = newToken();
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({ api_key_id: apiKeyId, key, request_hash: hash, owner_instance: ownerInstance, owner_token: token })
      .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { kind: 'owner', token };

    const row = await db
      .selectFrom('idempotency_keys as k')
      .select(['request_hash', 'response_status', 'response_body', 'owner_token', ownerAlive(sql.ref('k.owner_instance')).as('owner_alive')])
      .where('api_key_id', '=', apiKeyId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) continue;
    if (row.request_hash !== hash) {
      throw new ApiError('validation_error', 'Idempotency-Key was already used with a different request body.');
    }
    if (row.response_status !== null) return { kind: 'replay', response: { status: row.response_status, body: row.response_body } };
    if (!row.owner_alive) {
      const taken = await db
        .updateTable('idempotency_keys')
        .set({ owner_instance: ownerInstance, owner_token: token })
        .where('api_key_id', '=', apiKeyId)
        .where('key', '=', key)
        .where('response_status', 'is', null)
        .where('owner_token', 'is not distinct from', row.owner_token)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return { kind: 'owner', token };
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

/**
 * Records the final response, in the transaction that made it true (or on its own for errors).
 * A claim taken over by a retry (this request's process looked dead) is no longer this request's
 * to finish: that throws, rolling the transaction back, so the create happens once.
 */
export async function finishIdempotentCreate(db: Db | Transaction<Database>, claim: ClaimRef, response: StoredResponse): Promise<void> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ response_status: response.status, response_body: JSON.stringify(response.body) })
    .where('api_key_id', '=', claim.apiKeyId)
    .where('key', '=', claim.key)
    .where('owner_token', '=', claim.token)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    throw new ApiError('api_temporarily_disabled', 'A retry with this Idempotency-Key took the request over; retry with the same key for its result.', {
      headers: { 'retry-after': '1' },
    });
  }
}

/** Forgets a claim, so a retry runs the create afresh (after internal errors and 503s). */
export async function releaseIdempotencyKey(db: Db, claim: ClaimRef): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', claim.apiKeyId)
    .where('key', '=', claim.key)
    .where('owner_token', '=', claim.token)
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
