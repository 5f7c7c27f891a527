import { randomInt } from 'node:crypto';
import { sql, type Expression, type RawBuilder } from 'kysely';
import pg from 'pg';

/** First key of every instance lock ("dop"); the second is the instance id. */
export const LOCK_NAMESPACE = 0x646f70;
const RECONNECT_DELAY_MS = 1_000;
const RETRY_DELAY_MS = 1_000;

/**
 * This process's identity in the database, and proof that it is alive: a session advisory lock
 * on (LOCK_NAMESPACE, id) held by a connection of its own. PostgreSQL drops the lock the moment
 * that connection ends, so a process killed with -9 stops owning its idempotency claims and
 * create reservations at once, with no timeout to wait out. (If the connection is lost while the
 * process lives, its claims look abandoned until it reconnects; fencing tokens keep a claim
 * taken over meanwhile from being finished twice.)
 */
export class InstanceLiveness {
  private client: pg.Client | undefined;
  private closed = false;
  private currentId = 0;
  private readonly retries = new Set<() => Promise<unknown>>();
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly connectionString: string) {}

  /** The id claims and reservations record as their owner. */
  get id(): number {
    return this.currentId;
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    await client.connect();
    // Keep the id across reconnects; a new process draws one nobody holds.
    for (;;) {
      const id = this.currentId || randomInt(1, 2 ** 31 - 1);
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1, $2) as locked', [LOCK_NAMESPACE, id]);
      if (rows[0]!.locked) {
        this.currentId = id;
        break;
      }
      if (this.currentId) throw new Error(`instance id ${id} is held by another connection`);
    }
    this.client = client;
  }

  private reconnect(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    const retry = () => {
      if (!this.closed) this.start().catch(() => setTimeout(retry, RECONNECT_DELAY_MS).unref());
    };
    setTimeout(retry, RECONNECT_DELAY_MS).unref();
  }

  /**
   * Runs `task` (freeing a claim or a slot) now, and if the database cannot take it now, every
   * second until it can: a live owner's claim would otherwise stay held until the process ends.
   */
  releaseSoon(task: () => Promise<unknown>): void {
    task().catch(() => {
      this.retries.add(task);
      this.retryTimer ??= setInterval(() => void this.retryReleases(), RETRY_DELAY_MS).unref();
    });
  }

  /**
   * Runs at once what `releaseSoon` still has to free, so a retry after an outage does not find
   * its own earlier attempt's slot or claim still held (no query when nothing is pending).
   */
  async settleReleases(): Promise<void> {
    if (this.retries.size > 0) await this.retryReleases();
  }

  private async retryReleases(): Promise<void> {
    for (const task of this.retries) {
      await task().then(
        () => this.retries.delete(task),
        () => {},
      );
    }
    if (this.retries.size === 0) {
      clearInterval(this.retryTimer);
      this.retryTimer = undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

/** SQL that is true while the instance whose id `owner` holds is alive (see InstanceLiveness). */
export function ownerAlive(owner: Expression<number | null>): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from pg_locks l
    where l.locktype = 'advisory' and l.granted and l.objsubid = 2
      and l.classid = ${LOCK_NAMESPACE}::oid and l.objid = ${owner}::oid
      and l.database = (select oid from pg_database where datname = current_database()))`;
}
