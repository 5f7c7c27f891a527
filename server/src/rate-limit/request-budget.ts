import { sql } from 'kysely';
import type { Db } from '../db/connect';

export const WINDOW_SECONDS = 60;
/** First key of the two-part advisory lock, so our locks never meet another feature's. */
const LOCK_NAMESPACE = 0x52_4c; // "RL"

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
}

interface Usage {
  now: string;
  now_ms: number;
  used_minute: number;
  oldest_ms: number | null;
  used_today: number;
  next_day_ms: number;
}

/**
 * Admits and counts one request of a key, or refuses it without counting it. A sliding window
 * of WINDOW_SECONDS (one row per admitted request) and a per-UTC-day counter, both in
 * PostgreSQL so that every server process shares them. The transaction-scoped advisory lock on
 * the key makes check-and-count atomic: concurrent requests of one key queue up here.
 */
export async function spendRequest(db: Db, apiKeyId: string, limits: BudgetLimits): Promise<BudgetState> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${apiKeyId}))`.execute(trx);
    // The clock is read after the lock: a request that waited must not be dated before the
    // requests it waited for.
    const { rows } = await sql<Usage>`
      with clock as (select clock_timestamp() as now)
      select
        clock.now::text as now,
        extract(epoch from clock.now)::float8 * 1000 as now_ms,
        count(h.at)::int as used_minute,
        extract(epoch from min(h.at))::float8 * 1000 as oldest_ms,
        coalesce((
          select d.count from rate_limit_days d
          where d.api_key_id = ${apiKeyId} and d.day = (clock.now at time zone 'utc')::date
        ), 0) as used_today,
        extract(epoch from date_trunc('day', clock.now at time zone 'utc') + interval '1 day')::float8 * 1000
          as next_day_ms
      from clock
      left join rate_limit_hits h
        on h.api_key_id = ${apiKeyId} and h.at > clock.now - make_interval(secs => ${WINDOW_SECONDS})
      group by clock.now
    `.execute(trx);
    const usage = rows[0]!;
    const windowEndMs = (usage.oldest_ms ?? usage.now_ms) + WINDOW_SECONDS * 1000;
    const secondsUntil = (ms: number) => Math.max(1, Math.ceil((ms - usage.now_ms) / 1000));

    if (usage.used_today >= limits.perDay) {
      return refusal('day', limits, usage.next_day_ms, secondsUntil(usage.next_day_ms));
    }
    if (usage.used_minute >= limits.perMinute) {
      return refusal('minute', limits, windowEndMs, secondsUntil(windowEndMs));
    }

    await sql`
      with pruned_hits as (
        delete from rate_limit_hits
        where api_key_id = ${apiKeyId} and at <= ${usage.now}::timestamptz - make_interval(secs => ${WINDOW_SECONDS})
      ),
      pruned_days as (
        delete from rate_limit_days
        where api_key_id = ${apiKeyId} and day < (${usage.now}::timestamptz at time zone 'utc')::date
      ),
      hit as (insert into rate_limit_hits (api_key_id, at) values (${apiKeyId}, ${usage.now}::timestamptz))
      insert into rate_limit_days (api_key_id, day, count)
      values (${apiKeyId}, (${usage.now}::timestamptz at time zone 'utc')::date, 1)
      on conflict (api_key_id, day) do update set count = rate_limit_days.count + 1
    `.execute(trx);

    return {
      exceeded: null,
      limit: limits.perMinute,
      remaining: Math.min(limits.perMinute - usage.used_minute - 1, limits.perDay - usage.used_today - 1),
      resetAt: Math.ceil(windowEndMs / 1000),
      retryAfterSeconds: 0,
    };
  });
}

function refusal(exceeded: 'minute' | 'day', limits: BudgetLimits, resetMs: number, retryAfterSeconds: number): BudgetState {
  return { exceeded, limit: limits.perMinute, remaining: 0, resetAt: Math.ceil(resetMs / 1000), retryAfterSeconds };
}

/** Requests counted for each key in the current sliding minute and UTC day (read-only). */
export async function budgetUsage(db: Db, apiKeyIds: string[]): Promise<Map<string, { minute: number; today: number }>> {
  const usage = new Map(apiKeyIds.map((id) => [id, { minute: 0, today: 0 }]));
  if (apiKeyIds.length === 0) return usage;
  const { rows } = await sql<{ api_key_id: string; minute: number; today: number }>`
    select k.id as api_key_id,
      (select count(*)::int from rate_limit_hits h
        where h.api_key_id = k.id and h.at > clock_timestamp() - make_interval(secs => ${WINDOW_SECONDS})) as minute,
      coalesce((select d.count from rate_limit_days d
        where d.api_key_id = k.id and d.day = (clock_timestamp() at time zone 'utc')::date), 0) as today
    from unnest(${apiKeyIds}::text[]) as k(id)
  `.execute(db);
  for (const row of rows) usage.set(row.api_key_id, { minute: row.minute, today: row.today });
  return usage;
}
