import { sql, type Expression } from 'kysely';
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

/** The budget's columns; named apart from any column of a read made alongside. */
interface Spent {
  budget_exceeded: 'minute' | 'day' | null;
  budget_used_minute: number;
  budget_used_today: number;
  budget_oldest_ms: number | null;
  budget_now_ms: number;
  budget_next_day_ms: number;
}

/**
 * A read to make in the statement that spends a request's budget: a select whose text is the
 * same on every call (the statement is prepared), and the order of its rows by its own columns,
 * when it has one (rows out of a join come in no promised order).
 */
export interface ReadAlong<Row> {
  query: Expression<Row>;
  orderBy?: readonly { column: keyof Row & string; direction: 'asc' | 'desc' }[];
}

/** What a spend answers: the budget after it, and the rows of the read made alongside (none when refused). */
export interface Spend<Row> {
  state: BudgetState;
  rows: Row[];
}

/**
 * Admits and counts one request of a key, or refuses it without counting it: at most
 * `perMinute` in any sliding WINDOW_SECONDS and `perDay` per UTC day, shared by every server
 * process through one row per key in PostgreSQL, spent by one function call
 * (doppel_spend_request, migration 0006) in one round trip, prepared on each connection.
 * Given `read`, the same statement makes that read too when the request is admitted: the
 * request's own read costs no round trip of its own.
 */
export async function spendRequest<Row = never>(db: Db, apiKeyId: string, limits: BudgetLimits, read?: ReadAlong<Row>): Promise<Spend<Row>> {
  const order = read?.orderBy?.map(({ column, direction }) => sql`${sql.ref(`r.${column}`)} ${sql.raw(direction)}`);
  const { rows } = await sql<Spent & { budget_read: boolean | null } & Row>`${PREPARED}
    select
      s.exceeded as budget_exceeded,
      s.used_minute as budget_used_minute,
      s.used_today as budget_used_today,
      extract(epoch from s.oldest)::float8 * 1000 as budget_oldest_ms,
      extract(epoch from s.clock)::float8 * 1000 as budget_now_ms,
      extract(epoch from date_trunc('day', s.clock at time zone 'utc') + interval '1 day')::float8 * 1000 as budget_next_day_ms
      ${read ? sql`, r.*` : sql``}
    from doppel_spend_request(${apiKeyId}, ${limits.perMinute}, ${limits.perDay}, make_interval(secs => ${WINDOW_SECONDS})) s
    ${read ? sql`left join lateral (select true as budget_read, q.* from ${read.query} q where s.exceeded is null) r on true` : sql``}
    ${order ? sql`order by ${sql.join(order)}` : sql``}
  `.execute(db);
  return { state: budgetAfter(rows[0]!, limits), rows: rows.filter((row) => row.budget_read) };
}

function budgetAfter(spent: Spent, limits: BudgetLimits): BudgetState {
  const windowEndMs = (spent.budget_oldest_ms ?? spent.budget_now_ms) + WINDOW_SECONDS * 1000;
  const secondsUntil = (ms: number) => Math.max(1, Math.ceil((ms - spent.budget_now_ms) / 1000));

  const refusal = (exceeded: 'minute' | 'day', resetMs: number): BudgetState => ({
    exceeded,
    limit: limits.perMinute,
    remaining: 0,
    resetAt: Math.ceil(resetMs / 1000),
    retryAfterSeconds: secondsUntil(resetMs),
    resetInMs: resetMs - spent.budget_now_ms,
  });

  if (spent.budget_exceeded === 'day') return refusal('day', spent.budget_next_day_ms);
  if (spent.budget_exceeded === 'minute') return refusal('minute', windowEndMs);
  return {
    exceeded: null,
    limit: limits.perMinute,
    remaining: Math.min(limits.perMinute - spent.budget_used_minute - 1, limits.perDay - spent.budget_used_today - 1),
    resetAt: Math.ceil(windowEndMs / 1000),
    retryAfterSeconds: 0,
    resetInMs: windowEndMs - spent.budget_now_ms,
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
