import type { Channel, Notifications } from './notifications';

/**
 * Values loaded from the database, kept in memory for as long as this process hears the
 * channel that announces their change: a notification drops the entry its payload names, a gap
 * in listening drops every entry, and while not listening every read goes to the database. A
 * value whose load overlapped a notification is returned but not kept, since it may predate it.
 */
export class NotifiedCache<V> {
  private readonly entries = new Map<string, V>();
  private generation = 0;

  constructor(
    private readonly notifications: Notifications,
    channel: Channel,
    private readonly maxEntries: number,
  ) {
    notifications.subscribe(channel, {
      onMessage: (payload) => {
        this.generation++;
        this.entries.delete(payload);
      },
      onGap: () => {
        this.generation++;
        this.entries.clear();
      },
    });
  }

  /** The cached value, if it can be trusted now. */
  peek(key: string): V | undefined {
    return this.notifications.listening ? this.entries.get(key) : undefined;
  }

  /** The cached value, or what `load` finds (kept when it may be). Undefined is never kept. */
  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.peek(key);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && this.notifications.listening && generation === this.generation) {
      // Oldest first out: a bound on memory, not an eviction policy anyone relies on.
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, value);
    }
    return value;
  }
}
