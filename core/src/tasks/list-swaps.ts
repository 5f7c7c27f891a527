import type { SwapStatus, SwapType } from '@doppel/contract';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { SwapRow } from '../db/schema';
import { encodeSwapCursor, type SwapCursor } from './swap-cursor';

export interface SwapPage {
  rows: SwapRow[];
  /** Null on the last page. */
  nextCursor: string | null;
}

export interface PageRequest {
  limit: number;
  after: SwapCursor | null;
}

/** Whose swaps: one key's (the API) or every key of one user (the dashboard). */
export type SwapScope = { apiKeyId: string } | { userId: string };

export interface SwapFilter {
  status?: SwapStatus;
  type?: SwapType;
}

/**
 * One page of a key's swaps, newest first: created_at descending, then id descending, so rows
 * sharing a timestamp are neither skipped nor repeated across pages (keyset pagination on the
 * `swaps_key_page` index). The cursor carries created_at to the microsecond, selected as an
 * integer in SQL because a JS Date would round it.
 */
export function listSwaps(db: Db, apiKeyId: string, page: PageRequest): Promise<SwapPage> {
  return listScopedSwaps(db, { apiKeyId }, {}, page);
}

/** The same pages for any scope, optionally filtered by status and type (`swaps_user_page` for a user). */
export async function listScopedSwaps(db: Db, scope: SwapScope, filter: SwapFilter, page: PageRequest): Promise<SwapPage> {
  let query = db
    .selectFrom('swaps')
    .selectAll()
    .select(sql<string>`(extract(epoch from created_at) * 1000000)::int8::text`.as('created_at_micros'));
  query = 'apiKeyId' in scope ? query.where('api_key_id', '=', scope.apiKeyId) : query.where('user_id', '=', scope.userId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.type) query = query.where('type', '=', filter.type);
  if (page.after) {
    const { createdAtMicros, id } = page.after;
    query = query.where(
      sql<boolean>`(created_at, id) < (timestamptz 'epoch' + ${createdAtMicros.toString()}::int8 * interval '1 microsecond', ${id})`,
    );
  }
  const found = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();

  const rows = found.slice(0, page.limit);
  const last = rows.at(-1);
  const nextCursor =
    found.length > page.limit && last
      ? encodeSwapCursor({ createdAtMicros: BigInt(last.created_at_micros), id: last.id })
      : null;
  return { rows: rows.map(({ created_at_micros: _, ...row }) => row), nextCursor };
}
