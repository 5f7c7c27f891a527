import pg from 'pg';

export type Channel = 'doppel_swap' | 'doppel_scan';

/** How often a waiter re-checks on its own, in case a notification was lost in a reconnect. */
const FALLBACK_RECHECK_MS = 2_000;
const RECONNECT_DELAY_MS = 1_000;

/**
 * One LISTEN connection per process, fanning PostgreSQL notifications (sent by triggers on
 * swaps and content_scans) out to in-process waiters keyed by row id.
 */
export class Notifications {
  private client: pg.Client | undefined;
  private closed = false;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly connectionString: string) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => this.wake(`${message.channel}:${message.payload}`));
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    await client.connect();
    await client.query('listen doppel_swap');
    await client.query('listen doppel_scan');
    this.client = client;
    // Whatever changed while we were not listening: let every waiter look again.
    for (const key of this.waiters.keys()) this.wake(key);
  }

  private reconnect(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    setTimeout(() => {
      if (!this.closed) this.start().catch(() => this.reconnectLater());
    }, RECONNECT_DELAY_MS).unref();
  }

  private reconnectLater(): void {
    setTimeout(() => {
      if (!this.closed) this.start().catch(() => this.reconnectLater());
    }, RECONNECT_DELAY_MS).unref();
  }

  private wake(key: string): void {
    for (const wake of this.waiters.get(key) ?? []) wake();
  }

  /**
   * Calls `check` until it returns a value, sleeping between calls until the row's channel
   * fires (or a fallback interval passes). Returns undefined when the time is up or the
   * signal aborts.
   */
  async waitFor<T>(
    channel: Channel,
    id: string,
    check: () => Promise<T | undefined>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<T | undefined> {
    const key = `${channel}:${id}`;
    const deadline = Date.now() + options.timeoutMs;
    let poke: () => void = () => {};
    const listener = () => poke();
    const set = this.waiters.get(key) ?? new Set();
    set.add(listener);
    this.waiters.set(key, set);
    try {
      for (;;) {
        const result = await check();
        if (result !== undefined) return result;
        const remaining = deadline - Date.now();
        if (remaining <= 0 || options.signal?.aborted) return undefined;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(remaining, FALLBACK_RECHECK_MS));
          const done = () => {
            clearTimeout(timer);
            options.signal?.removeEventListener('abort', done);
            resolve();
          };
          poke = done;
          options.signal?.addEventListener('abort', done, { once: true });
        });
      }
    } finally {
      set.delete(listener);
      if (set.size === 0) this.waiters.delete(key);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
