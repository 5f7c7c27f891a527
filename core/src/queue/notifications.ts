import pg from 'pg';

/** Row ids of changed swaps and scans; hashes of revoked keys; names of changed settings; blocked client addresses. */
const CHANNELS = ['doppel_swap', 'doppel_scan', 'doppel_api_key', 'doppel_setting', 'doppel_auth_block'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface Subscriber {
  /** A notification on the channel, with its payload. */
  onMessage(payload: string): void;
  /** Listening (re)started: whatever was sent meanwhile is lost, so forget what it would have changed. */
  onGap(): void;
}

/** How often a waiter re-checks on its own, in case a notification was lost in a reconnect. */
const FALLBACK_RECHECK_MS = 2_000;
const RECONNECT_DELAY_MS = 1_000;

/**
 * One LISTEN connection per process, fanning PostgreSQL notifications (sent by triggers on
 * swaps, content_scans, api_keys and settings) out to in-process waiters keyed by row id and to
 * subscribers of a whole channel (the in-memory caches of the request path).
 */
export class Notifications {
  private client: pg.Client | undefined;
  private closed = false;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly subscribers = new Map<Channel, Set<Subscriber>>();

  constructor(private readonly connectionString: string) {}

  /** True while notifications are being heard; a cache must not be trusted otherwise. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  subscribe(channel: Channel, subscriber: Subscriber): void {
    const set = this.subscribers.get(channel) ?? new Set();
    set.add(subscriber);
    this.subscribers.set(channel, set);
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      for (const subscriber of this.subscribers.get(message.channel as Channel) ?? []) subscriber.onMessage(message.payload ?? '');
      this.wake(`${message.channel}:${message.payload}`);
    });
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    await client.connect();
    await client.query(CHANNELS.map((channel) => `listen ${channel};`).join(' '));
    this.client = client;
    // Whatever changed while we were not listening: let every waiter look again.
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.onGap();
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
