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
 * failures are not kept either, so the next request asks afresh.
 */
export function cachingResolver(resolver: DohResolver, options: DohCacheOptions = {}): DohResolver {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const maxTtlMs = (options.maxTtlSeconds ?? DEFAULT_MAX_TTL_SECONDS) * 1000;
  const now = options.now ?? Date.now;
  const answers = new Map<string, { addresses: ResolvedAddress[]; expiresAt: number }>();

  return {
    async resolve(hostname, resolveOptions) {
      const name = hostname.toLowerCase().replace(/\.$/, '');
      const cached = answers.get(name);
      if (cached && cached.expiresAt > now()) return cached.addresses;
      answers.delete(name);

      const addresses = await resolver.resolve(hostname, resolveOptions);
      const ttlMs = Math.min(maxTtlMs, ...addresses.map((a) => a.ttl * 1000));
      if (ttlMs > 0) {
        if (answers.size >= maxEntries) answers.delete(answers.keys().next().value!);
        answers.set(name, { addresses, expiresAt: now() + ttlMs });
      }
      return addresses;
    },
  };
}
