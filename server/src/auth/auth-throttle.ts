import { sql } from 'kysely';
import type { Db } from '../db/connect';

export interface AuthBlock {
  retryAfterSeconds: number;
  /** Epoch seconds when the address may try again. */
  resetAt: number;
}

/**
 * Whether this client address used up its failed authentications for the current minute.
 * Counted in fixed one-minute windows shared by every server process through the database.
 */
export async function authBlock(db: Db, client: string, failuresPerMinute: number): Promise<AuthBlock | null> {
  const { rows } = await sql<{ count: number; reset_at: number }>`
    select count, extract(epoch from window_start + interval '1 minute')::float8 as reset_at
    from auth_failures
    where client = ${client} and window_start = date_trunc('minute', now())
  `.execute(db);
  const row = rows[0];
  if (!row || row.count < failuresPerMinute) return null;
  const resetAt = Math.ceil(row.reset_at);
  return { resetAt, retryAfterSeconds: Math.max(1, resetAt - Math.floor(Date.now() / 1000)) };
}

/** Counts one failed authentication; windows before the current minute are dropped as we go. */
export async function recordAuthFailure(db: Db, client: string): Promise<void> {
  await sql`
    with expired as (delete from auth_failures where window_start < date_trunc('minute', now()))
    insert into auth_failures (client, window_start, count)
    values (${client}, date_trunc('minute', now()), 1)
    on conflict (client, window_start) do update set count = auth_failures.count + 1
  `.execute(db);
}
