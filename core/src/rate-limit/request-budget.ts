import { sql } from 'kysely';
import { PREPARED, type Db } from '../db/connect';

export const WINDOW_SECONDS = 60;

export interface BudgetLimits {
  perMinute: number;
  perDay: number;
}

export interface BudgetState {
  /** Null when the request was admitted and counted. */
  exceeded: 'minute' | 'day' | null;
  limit: number;
  /** Requests left, in whichever of the two budgets has fewer. */
  remaining: number;
  /** Epoch seconds when the binding budget frees up again. */
  resetAt: number;
  retryAfterSeconds: number;
  /** Milliseconds from the database's clock at the decision until `resetAt`. */
  resetInMs: number;
}

interface Spent {
  exceeded: 'minute' | 'day' | null;
  used_minute: number;
  used_today: number;
  oldest_ms: number | null;
  now_ms: number;
  next_day_ms: number;
}

/**
 * Admits and counts one request of a key, or refuses it without counting it: at most
 * `perMinute` in any sliding WINDOW_SECONDS and `perDay` per UTC day, shared by every server
 * process through one row per key in PostgreSQL, spent by one function call
 * (doppel_spend_request, migration 0006) in one round trip, prepared on each connection.
 */
export async function spendRequest(db: Db, apiKeyId: string, limits: BudgetLimits): Promise<BudgetState> {
  const { rows } = await sql<Spent>`${PREPARED}
    select
      s.exceeded,
      s.used_minute,
      s.used_today,
      extract(epoch from s.oldest)::float8 * 1000 as oldest_ms,
      extract(epoch from s.clock)::float8 * 1000 as now_ms,
      extract(epoch from date_trunc('day', s.clock at time zone 'utc') + interval '1 day')::float8 * 1000 as next_day_ms
    from doppel_spend_request(${apiKeyId}, ${limits.perMinute}, ${limits.perDay}, make_interval(secs => ${WINDOW_SECONDS})) s
  `.execute(db);
  const spent = rows[0]!;
  const windowEndMs = (spent.oldest_ms ?? spent.now_ms) + WINDOW_SECONDS * 1000;
  const secondsUntil = (ms: number) => Math.max(1, Math.ceil((ms - spent.now_ms) / 1000));

  const refusal = (exceeded: 'minute' | 'day', resetMs: number): BudgetState => ({
    exceeded,
    limit: limits.perMinute,
    remaining: 0,
    resetAt: Math.ceil(resetMs / 1000),
    retryAfterSeconds: secondsUntil(resetMs),
    resetInMs: resetMs - spent.now_ms,
  });

  if (spent.exceeded === 'day') return refusal('day', spent.next_day_ms);
  if (spent.exceeded === 'minute') return refusal('minute', windowEndMs);
  return {
    exceeded: null,
    limit: limits.perMinute,
    remaining: Math.min(limits.perMinute - spent.used_minute - 1, limits.perDay - spent.used_today - 1),
    resetAt: Math.ceil(windowEndMs / 1000),
    retryAfterSeconds: 0,
    resetInMs: windowEndMs - spent.now_ms,
  };
}

/**
 * Requests counted for each key in the current sliding minute and UTC day, read from the rows
 * doppel_spend_request keeps (read-only): the ring's admissions still in the window, and the
 * day's count when it is today's.
 */
export async function budgetUsage(db: Db, apiKeyIds: string[]): Promise<Map<string, { minute: number; today: number }>> {
  const usage = new Map(apiKeyIds.map((id) => [id, { minute: 0, today: 0 }]));
  if (apiKeyIds.length === 0) return usage;
  const { rows } = await sql<{ api_key_id: string; minute: number; today: number }>`
    select b.api_key_id,
      (select count(*)::int from rate_limit_admissions a
        where a.api_key_id = b.api_key_id
          and (a.slot - b.tail + b.ring_size) % b.ring_size < b.in_window
          and a.at > clock_timestamp() - make_interval(secs => ${WINDOW_SECONDS})) as minute,
      case when b.day = (clock_timestamp() at time zone 'utc')::date then b.day_count else 0 end as today
    from rate_limit_budgets b
    where b.api_key_id = any(${apiKeyIds}::text[])
  `.execute(db);
  for (const row of rows) usage.set(row.api_key_id, { minute: row.minute, today: row.today });
  return usage;
}

/**
 * Deletes the rows of keys whose budget holds nothing any more: no admission in the sliding
 * window, and no count for today or a key that can never spend again (revoked or deleted). Such
 * a key answers exactly as with its row (a missing row is an empty budget). A key that spends
 * while this runs keeps its row: the row is locked by doppel_spend_request, and re-checked here
 * once free. Run by the maintenance schedule; returns the keys forgotten.
 */
export async function pruneIdleBudgets(db: Db): Promise<number> {
  const { rows } = await sql<{ forgotten: number }>`
    with gone as (
      delete from rate_limit_budgets b
      where (b.last_at is null or b.last_at <= clock_timestamp() - make_interval(secs => ${WINDOW_SECONDS}))
        and (b.day is distinct from (clock_timestamp() at time zone 'utc')::date
          or not exists (select 1 from api_keys k where k.id = b.api_key_id and k.revoked_at is null))
      returning b.api_key_id
    ),
    admissions as (delete from rate_limit_admissions a using gone where a.api_key_id = gone.api_key_id)
    select count(*)::int as forgotten from gone
  `.execute(db);
  return rows[0]!.forgotten;
}
