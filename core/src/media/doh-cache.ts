import type { DohResolver, ResolvedAddress } from './doh-resolver';

export interface DohCacheOptions {
  /** Names remembered at most; the oldest entry makes room. */
  maxEntries?: number;
  /** No answer is kept longer than this, whatever its TTL says. */
  maxTtlSeconds?: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

const DEFAULT_MAX_ENTRIES = 10_000;
const DEFAULT_MAX_TTL_SECONDS = 300;

/**
 * Keeps each name's addresses for the shortest TTL among them (capped), as any resolver would,
 * so creates that name the same media host do not ask DoH again. A TTL of 0 is not kept;
 * failures are not kept either, so the next request asks afresh. Lookups of a name already being
 * asked for wait for that answer instead of asking again: a burst of creates naming one new host
 * sends one query, not one each. The shared query ends by the resolver's own timeout; each caller
 * stops waiting for it when its own signal aborts.
 */
export function cachingResolver(resolver: DohResolver, options: DohCacheOptions = {}): DohResolver {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const maxTtlMs = (options.maxTtlSeconds ?? DEFAULT_MAX_TTL_SECONDS) * 1000;
  const now = options.now ?? Date.now;
  const answers = new Map<string, { addresses: ResolvedAddress[]; expiresAt: number }>();
  const asking = new Map<string, Promise<ResolvedAddress[]>>();

  const ask = (name: string, hostname: string): Promise<ResolvedAddress[]> => {
    let lookup = asking.get(name);
    if (!lookup) {
      lookup = resolver
        .resolve(hostname)
        .then((addresses) => {
          const ttlMs = Math.min(maxTtlMs, ...addresses.map((a) => a.ttl * 1000));
          if (ttlMs > 0) {
            if (answers.size >= maxEntries) answers.delete(answers.keys().next().value!);
            answers.set(name, { addresses, expiresAt: now() + ttlMs });
          }
          return addresses;
        })
        .finally(() => asking.delete(name));
      // Every caller may have stopped waiting by the time it fails.
      lookup.catch(() => {});
      asking.set(name, lookup);
    }
    return lookup;
  };

  return {
    async resolve(hostname, resolveOptions) {
      const name = hostname.toLowerCase().replace(/\.$/, '');
      const cached = answers.get(name);
      if (cached && cached.expiresAt > now()) return cached.addresses;
      answers.delete(name);

      const signal = resolveOptions?.signal;
      signal?.throwIfAborted();
      const lookup = ask(name, hostname);
      if (!signal) return lookup;
      let stop: () => void = () => {};
      const stopped = new Promise<never>((_, reject) => {
        stop = () => reject(signal.reason);
        signal.addEventListener('abort', stop, { once: true });
      });
      try {
        return await Promise.race([lookup, stopped]);
      } finally {
        signal.removeEventListener('abort', stop);
      }
    },
  };
}
