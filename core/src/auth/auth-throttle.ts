import ipaddr from 'ipaddr.js';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Notifications } from '../queue/notifications';

export interface AuthBlock {
  retryAfterSeconds: number;
  /** Epoch seconds when the address may try again. */
  resetAt: number;
}

/**
 * What failed authentications are counted against: the client's IPv4 address, or the /64 of its
 * IPv6 address, which one subscriber usually holds whole (counting single IPv6 addresses would
 * let one client try 2^64 times as often). IPv4-mapped IPv6 counts as the IPv4 address.
 */
export function throttledNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/** Expired blocks are swept once this many addresses are remembered. */
const SWEEP_AT = 10_000;

/**
 * Client addresses that used up their failed authentications for the current minute, counted
 * in fixed one-minute windows shared by every server process through the database. The address
 * that reaches the limit is announced on `doppel_auth_block`, so each process checks blocks in
 * memory; it reads them from the database after a gap in listening, and while not listening.
 */
export class AuthBlocks {
  /** Client address -> epoch seconds its block ends. */
  private readonly blocked = new Map<string, number>();
  private synced = false;
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly notifications: Notifications,
    private readonly failuresPerMinute: number,
  ) {
    notifications.subscribe('doppel_auth_block', {
      onMessage: (payload) => {
        const at = payload.lastIndexOf(' ');
        this.note(payload.slice(0, at), Number(payload.slice(at + 1)));
      },
      onGap: () => {
        this.generation++;
        this.synced = false;
        this.blocked.clear();
      },
    });
  }

  /** Whether this client address is over its failure budget for the current minute. */
  async blockOf(client: string): Promise<AuthBlock | null> {
    if (!this.notifications.listening) return readBlock(this.db, client, this.failuresPerMinute);
    if (!this.synced) await this.sync();
    const resetAt = this.blocked.get(client);
    if (resetAt === undefined) return null;
    const nowSeconds = Date.now() / 1000;
    if (resetAt <= nowSeconds) {
      this.blocked.delete(client);
      return null;
    }
    return { resetAt, retryAfterSeconds: Math.max(1, Math.ceil(resetAt - nowSeconds)) };
  }

  /** Counts one failed authentication; the one that reaches the limit is announced. */
  async recordFailure(client: string): Promise<void> {
    const counted = await countFailure(this.db, client, this.failuresPerMinute);
    if (counted.count >= this.failuresPerMinute) this.note(client, counted.resetAt);
  }

  private note(client: string, resetAt: number): void {
    if (this.blocked.size >= SWEEP_AT) {
      const nowSeconds = Date.now() / 1000;
      for (const [address, until] of this.blocked) if (until <= nowSeconds) this.blocked.delete(address);
    }
    this.blocked.set(client, resetAt);
  }

  private async sync(): Promise<void> {
    const generation = this.generation;
    const { rows } = await sql<{ client: string; reset_at: number }>`
      select client, ceil(extract(epoch from window_start + interval '1 minute'))::float8 as reset_at
      from auth_failures
      where window_start = date_trunc('minute', now()) and count >= ${this.failuresPerMinute}
    `.execute(this.db);
    if (generation !== this.generation) return;
    for (const row of rows) this.note(row.client, row.reset_at);
    this.synced = true;
  }
}

/** Whether `client` used up `failuresPerMinute` in the current minute, read from the database. */
export async function readBlock(db: Db, client: string, failuresPerMinute: number): Promise<AuthBlock | null> {
  const { rows } = await sql<{ count: number; reset_at: number }>`
    select count, ceil(extract(epoch from window_start + interval '1 minute'))::float8 as reset_at
    from auth_failures
    where client = ${client} and window_start = date_trunc('minute', now())
  `.execute(db);
  const row = rows[0];
  if (!row || row.count < failuresPerMinute) return null;
  return { resetAt: row.reset_at, retryAfterSeconds: Math.max(1, Math.ceil(row.reset_at - Date.now() / 1000)) };
}

/** Failures of windows before the current minute, which nothing reads; run by maintenance. */
export async function pruneAuthFailures(db: Db): Promise<void> {
  await sql`delete from auth_failures where window_start < date_trunc('minute', now())`.execute(db);
}

/**
 * Counts one failure of `client` in the current minute's window (windows before it are dropped
 * as we go). The failure that makes the count `announceAt` is announced on `doppel_auth_block`.
 */
export async function countFailure(db: Db, client: string, announceAt?: number): Promise<{ count: number; resetAt: number }> {
  const { rows } = await sql<{ count: number; reset_at: number }>`
    with expired as (delete from auth_failures where window_start < date_trunc('minute', now())),
    counted as (
      insert into auth_failures (client, window_start, count)
      values (${client}, date_trunc('minute', now()), 1)
      on conflict (client, window_start) do update set count = auth_failures.count + 1
      returning count, ceil(extract(epoch from window_start + interval '1 minute'))::float8 as reset_at
    )
    select count, reset_at,
      case when count = ${announceAt ?? null} then pg_notify('doppel_auth_block', ${client} || ' ' || reset_at) end
    from counted
  `.execute(db);
  const row = rows[0]!;
  return { count: row.count, resetAt: row.reset_at };
}
