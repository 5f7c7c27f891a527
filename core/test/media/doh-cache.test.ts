import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachingResolver } from '../../src/media/doh-cache';
import { createDohResolver } from '../../src/media/doh-resolver';
import { startDohServer, type DohServer } from '../support/doh-server';
import { createTestCa } from '../support/test-ca';

let doh: DohServer;
let clock = 0;
let resolver: ReturnType<typeof cachingResolver>;

beforeAll(async () => {
  const ca = (await createTestCa()).certPem;
  doh = await startDohServer({
    answers: {
      'short.test': { addresses: ['93.184.215.14', '2606:4700::6810:84e5'], ttl: 30 },
      'long.test': { addresses: ['1.1.1.1'], ttl: 86_400 },
      'uncached.test': { addresses: ['8.8.8.8'], ttl: 0 },
      'gone.test': { rcode: 'NXDOMAIN' },
      'burst.test': { addresses: ['93.184.215.15'], ttl: 60 },
      'abandoned.test': { addresses: ['9.9.9.9'], ttl: 60 },
    },
  });
  resolver = cachingResolver(createDohResolver({ resolvers: [doh.url], ca }), { maxTtlSeconds: 300, now: () => clock });
});
afterAll(() => doh.close());

const askedFor = (name: string) => doh.queries.filter((query) => query.name === name).length;

describe('DoH answer cache', () => {
  it('answers a name again from memory until its TTL has passed', async () => {
    const first = await resolver.resolve('short.test');
    clock += 29_000;
    expect(await resolver.resolve('Short.Test.')).toEqual(first);
    expect(askedFor('short.test')).toBe(2); // A and AAAA, once
    clock += 1_000;
    expect(await resolver.resolve('short.test')).toEqual(first);
    expect(askedFor('short.test')).toBe(4);
  });

  it('keeps no answer longer than its cap', async () => {
    await resolver.resolve('long.test');
    clock += 299_000;
    await resolver.resolve('long.test');
    expect(askedFor('long.test')).toBe(2);
    clock += 1_000;
    await resolver.resolve('long.test');
    expect(askedFor('long.test')).toBe(4);
  });

  it('asks once for a name that many lookups want at the same time', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => resolver.resolve('burst.test')));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(askedFor('burst.test')).toBe(2); // A and AAAA, once
  });

  it('stops waiting for a shared lookup when the caller aborts, and the others still get the answer', async () => {
    const caller = new AbortController();
    const abandoned = resolver.resolve('abandoned.test', { signal: caller.signal });
    const kept = resolver.resolve('abandoned.test');
    caller.abort(new Error('client went away'));
    await expect(abandoned).rejects.toThrow('client went away');
    expect((await kept).map((a) => a.address)).toEqual(['9.9.9.9']);
    expect(askedFor('abandoned.test')).toBe(2);
  });

  it('does not keep an answer with a TTL of 0, nor a failure', async () => {
    await resolver.resolve('uncached.test');
    await resolver.resolve('uncached.test');
    expect(askedFor('uncached.test')).toBe(4);
    await expect(resolver.resolve('gone.test')).rejects.toThrow(/does not exist/);
    await expect(resolver.resolve('gone.test')).rejects.toThrow(/does not exist/);
    expect(askedFor('gone.test')).toBe(4);
  });

  it('makes room by dropping the oldest name once full', async () => {
    const ca = (await createTestCa()).certPem;
    const small = cachingResolver(createDohResolver({ resolvers: [doh.url], ca }), { maxEntries: 1, now: () => clock });
    await small.resolve('short.test');
    await small.resolve('long.test');
    const before = askedFor('short.test');
    await small.resolve('short.test');
    expect(askedFor('short.test')).toBe(before + 2);
  });
});
