import { cancelableSwapStatuses, type SwapStatus, type SwapType } from '@doppel/contract';
import { sql, type RawBuilder } from 'kysely';
import { PREPARED, type Db } from '../db/connect';
import type { NewSwap, SwapRow } from '../db/schema';
import type { SwapInputs } from '../db/stored-inputs';
import { liveJobExists, queues } from '../queue/boss';
import { PUBLIC_SWAP_COLUMNS, type PublicSwapRow } from './public-swap';
import { encodeSwapCursor, type SwapCursor } from './swap-cursor';

// The one module that reads and writes the `swaps` table (docs/architecture.md, "Tables and their
// owners"). What a swap's ending does beyond its row (refund, webhook event) is in finish-swap.ts.

/** The insert of one swap as SQL, returning the given columns. */
function insertSwapSql(swap: NewSwap, returning: RawBuilder<unknown>): RawBuilder<unknown> {
  const columns = (Object.keys(swap) as (keyof NewSwap)[]).filter((column) => swap[column] !== undefined);
  return sql`insert into swaps (${sql.join(columns.map((column) => sql.ref(column)))})
    values (${sql.join(columns.map((column) => swap[column]))})
    returning ${returning}`;
}

/**
 * A new swap row as a step of a larger statement (the create writes its charge, the swap and the
 * release of its slot in one round trip), returning the columns it is shown with.
 */
export function insertSwapStep(swap: NewSwap): RawBuilder<unknown> {
  return insertSwapSql(swap, sql.join(PUBLIC_SWAP_COLUMNS.map((column) => sql.ref(column))));
}

/** A new swap row on its own, by the same SQL as the create's step (tests make their rows with it). */
export async function insertSwap(db: Db, swap: NewSwap): Promise<SwapRow> {
  const { rows } = await sql<SwapRow>`${insertSwapSql(swap, sql`*`)}`.execute(db);
  return rows[0]!;
}

/**
 * The swap with this id if the key created it, as far as it is shown; another key's swap is as
 * absent as a missing one. Prepared: GET /swaps/{id} runs nothing else (and reads it with the
 * request's spend, findSwapQuery).
 */
export function findSwap(db: Db, apiKeyId: string, id: string): Promise<PublicSwapRow | undefined> {
  return findSwapQuery(db, apiKeyId, id).executeTakeFirst();
}

/** findSwap's statement, to run as part of another. */
export function findSwapQuery(db: Db, apiKeyId: string, id: string) {
  return db
    .selectFrom('swaps')
    .modifyFront(PREPARED)
    .select(PUBLIC_SWAP_COLUMNS)
    .where('id', '=', id)
    .where('api_key_id', '=', apiKeyId);
}

/** The swap as it is now, whoever owns it (jobs and the operator act for no API key). */
export function readSwap(db: Db, id: string): Promise<SwapRow | undefined> {
  return db.selectFrom('swaps').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The swap with this id if one of the user's keys created it (dashboard). */
export function findUserSwap(db: Db, userId: string, id: string): Promise<SwapRow | undefined> {
  return db.selectFrom('swaps').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Swaps created per UTC day over the last `days` days (today included), by `YYYY-MM-DD`. */
export async function dailySwapCounts(db: Db, userId: string, days: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('swaps')
    .select([sql<string>`to_char(created_at at time zone 'utc', 'YYYY-MM-DD')`.as('day'), (eb) => eb.fn.countAll<string>().as('count')])
    .where('user_id', '=', userId)
    .where('created_at', '>=', sql<Date>`date_trunc('day', now() at time zone 'utc') at time zone 'utc' - make_interval(days => ${days - 1})`)
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.count)]));
}

/**
 * Spec 3.1: one guarded UPDATE moves a queued or preparing swap to canceled; whatever the status
 * filter does not match (processing, or already terminal) is left as it is (undefined). The
 * guard makes the cancel and a worker's pick-up mutually exclusive without locks.
 */
export function markSwapCanceled(db: Db, apiKeyId: string, id: string): Promise<SwapRow | undefined> {
  return db
    .updateTable('swaps')
    .set({ status: 'canceled', updated_at: sql<Date>`now()`, completed_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('api_key_id', '=', apiKeyId)
    .where('status', 'in', cancelableSwapStatuses)
    .returningAll()
    .executeTakeFirst();
}

/** Worker pick-up: queued -> preparing, or null when the swap is no longer queued (e.g. canceled). */
export function claimSwap(db: Db, id: string): Promise<SwapRow | null> {
  return advance(db, id, 'queued', 'preparing');
}

/**
 * Worker start: preparing -> processing, or null when the swap left preparing (canceled). Past
 * this point a cancel no longer applies.
 */
export function startSwapProcessing(db: Db, id: string): Promise<SwapRow | null> {
  return advance(db, id, 'preparing', 'processing');
}

async function advance(db: Db, id: string, from: SwapRow['status'], to: SwapRow['status']): Promise<SwapRow | null> {
  const row = await db
    .updateTable('swaps')
    .set({ status: to, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/** processing -> done with the stored result; undefined when the swap is no longer processing. */
export function markSwapDone(db: Db, id: string, result: { url: string; key: string }): Promise<SwapRow | undefined> {
  return db
    .updateTable('swaps')
    .set({
      status: 'done',
      progress: 100,
      result_url: result.url,
      result_key: result.key,
      error: null,
      updated_at: sql<Date>`now()`,
      completed_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .returningAll()
    .executeTakeFirst();
}

/** Any status not yet ended -> failed with this error; undefined when the swap had ended. */
export function markSwapFailed(db: Db, id: string, error: string): Promise<SwapRow | undefined> {
  return db
    .updateTable('swaps')
    .set({ status: 'failed', error, updated_at: sql<Date>`now()`, completed_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'preparing', 'processing'])
    .returningAll()
    .executeTakeFirst();
}

/**
 * Flips the swap's `refunded` flag, once: the owner of the charge, or undefined when it was
 * refunded already (or there is no such swap). Several workers may try at a time.
 */
export function markSwapRefunded(db: Db, id: string): Promise<{ user_id: string } | undefined> {
  return db
    .updateTable('swaps')
    .set({ refunded: true })
    .where('id', '=', id)
    .where('refunded', '=', false)
    .returning('user_id')
    .executeTakeFirst();
}

/** A rising progress value while processing (older, lower writes never win); 100 is for done. */
export async function writeSwapProgress(db: Db, id: string, progress: number): Promise<void> {
  await db
    .updateTable('swaps')
    .set({ progress, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .where('progress', '<', progress)
    .execute();
}

/** A swap's status, stored inputs and user (the retirement of inputs reads them). */
export function readSwapInputs(db: Db, id: string): Promise<Pick<SwapRow, 'status' | 'inputs' | 'user_id'> | undefined> {
  return db.selectFrom('swaps').select(['status', 'inputs', 'user_id']).where('id', '=', id).executeTakeFirst();
}

/**
 * Swaps left unfinished with no job that could still finish them (the job was lost with a
 * crashed process's transaction, or deleted). A minute of grace covers a job between two of its
 * states.
 */
export async function findStuckSwapIds(db: Db): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select s.id from swaps s
    where s.status in ('queued', 'preparing', 'processing')
      and s.updated_at < now() - interval '1 minute'
      and not ${liveJobExists([queues.swap.name, queues.swapDead.name], 'swapId', sql.ref('s.id'))}
    limit 500`.execute(db);
  return rows.map((row) => row.id);
}

/** Ended swaps created more than `days` days ago, a batch at a time (retention). */
export function endedSwapsOlderThan(
  db: Db,
  days: number,
  limit: number,
): Promise<{ id: string; inputs: Partial<SwapInputs>; result_key: string | null }[]> {
  return db
    .selectFrom('swaps')
    .select(['id', 'inputs', 'result_key'])
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .where('status', 'in', ['done', 'failed', 'canceled'])
    .limit(limit)
    .execute();
}

/** Deletes swaps; their webhook events and attempts go with them (on delete cascade). */
export async function deleteSwaps(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('swaps').where('id', 'in', ids).execute();
}

/** How many swaps are kept, by type and status (metrics). */
export async function countSwaps(db: Db): Promise<{ type: SwapType; status: SwapStatus; count: number }[]> {
  const rows = await db
    .selectFrom('swaps')
    .select(['type', 'status', (eb) => eb.fn.countAll<string>().as('count')])
    .groupBy(['type', 'status'])
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

export interface SwapPage {
  rows: PublicSwapRow[];
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

/** A page's row: a swap as it is shown, and its creation time to the microsecond for the cursor. */
export type SwapPageRow = PublicSwapRow & { created_at_micros: string };

/** The order of a page: newest first, then by id (also the order a page read with a spend is put in). */
export const SWAP_PAGE_ORDER = [
  { column: 'created_at', direction: 'desc' },
  { column: 'id', direction: 'desc' },
] as const satisfies readonly { column: keyof SwapPageRow; direction: 'asc' | 'desc' }[];

/** One page of swaps (`swapPageQuery`, `swapPageOf`) for any scope, optionally filtered by status and type. */
export async function listScopedSwaps(db: Db, scope: SwapScope, filter: SwapFilter, page: PageRequest): Promise<SwapPage> {
  return swapPageOf(await swapPageQuery(db, scope, filter, page).execute(), page.limit);
}

/**
 * The statement of one page, newest first: created_at descending, then id descending, so rows
 * sharing a timestamp are neither skipped nor repeated across pages (keyset pagination on the
 * `swaps_key_page` index for a key, `swaps_user_page` for a user). It reads one row more than the
 * page holds, which tells whether a next one exists. The cursor carries created_at to the
 * microsecond, selected as an integer in SQL because a JS Date would round it. Prepared: each
 * combination of scope, filters and cursor is one text; GET /swaps reads it with the request's
 * spend, its only round trip.
 */
export function swapPageQuery(db: Db, scope: SwapScope, filter: SwapFilter, page: PageRequest) {
  let query = db
    .selectFrom('swaps')
    .modifyFront(PREPARED)
    .select(PUBLIC_SWAP_COLUMNS)
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
  for (const { column, direction } of SWAP_PAGE_ORDER) query = query.orderBy(column, direction);
  return query.limit(page.limit + 1);
}

/** The page that swapPageQuery's rows (in its order) make. */
export function swapPageOf(found: SwapPageRow[], limit: number): SwapPage {
  const rows = found.slice(0, limit);
  const last = rows.at(-1);
  const nextCursor =
    found.length > limit && last ? encodeSwapCursor({ createdAtMicros: BigInt(last.created_at_micros), id: last.id }) : null;
  return { rows: rows.map(({ created_at_micros: _, ...row }) => row), nextCursor };
}
