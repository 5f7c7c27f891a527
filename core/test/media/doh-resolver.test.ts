import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDohResolver, DnsResolutionError } from '../../src/media/doh-resolver';
import { deadResolverUrl, startDohServer, startSilentServer, type DohServer } from '../support/doh-server';
import { createTestCa } from '../support/test-ca';

let ca: string;
let doh: DohServer;
let broken: DohServer;

beforeAll(async () => {
  ca = (await createTestCa()).certPem;
  doh = await startDohServer({
    answers: {
      'dual.test': { addresses: ['93.184.215.14', '2606:4700::6810:84e5'], ttl: 300 },
      'v4only.test': { addresses: ['1.1.1.1'] },
      'alias.test': { cname: 'hop.test' },
      'hop.test': { cname: 'final.test' },
      'final.test': { addresses: ['8.8.4.4', '2001:4860:4860::8844'] },
      'loop-a.test': { cname: 'loop-b.test' },
      'loop-b.test': { cname: 'loop-a.test' },
      'empty.test': { addresses: [] },
      'gone.test': { rcode: 'NXDOMAIN' },
    },
  });
  broken = await startDohServer({ answers: () => ({ rcode: 'SERVFAIL' }) });
});

afterAll(async () => {
  await doh.close();
  await broken.close();
});

const failureOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DnsResolutionError);
  return (error as DnsResolutionError).failure;
};

describe('DNS-over-HTTPS resolver', () => {
  it('returns both the A and the AAAA addresses of a name, with their TTLs', async () => {
    const resolver = createDohResolver({ resolvers: [doh.url], ca });
    const addresses = await resolver.resolve('Dual.Test.');
    expect(addresses).toEqual([
      { address: '93.184.215.14', family: 4, ttl: 300 },
      { address: '2606:4700::6810:84e5', family: 6, ttl: 300 },
    ]);
    const asked = doh.queries.filter((query) => query.name === 'dual.test');
    expect(asked.map((query) => [query.type, query.method]).sort()).toEqual([
      ['A', 'POST'],
      ['AAAA', 'POST'],
    ]);
  });

  it('speaks the GET form of RFC 8484 when asked to', async () => {
    const resolver = createDohResolver({ resolvers: [doh.url], ca, method: 'GET' });
    expect(await resolver.resolve('v4only.test')).toEqual([{ address: '1.1.1.1', family: 4, ttl: 0 }]);
    expect(doh.queries.filter((query) => query.name === 'v4only.test' && query.method === 'GET')).toHaveLength(2);
  });

  it('follows a CNAME chain inside the answer to the final addresses', async () => {
    const resolver = createDohResolver({ resolvers: [doh.url], ca });
    const addresses = await resolver.resolve('alias.test');
    expect(addresses.map(({ address }) => address)).toEqual(['8.8.4.4', '2001:4860:4860::8844']);
  });

  it('reports NXDOMAIN as a name that does not exist, without asking another resolver', async () => {
    const before = broken.queries.length;
    const resolver = createDohResolver({ resolvers: [doh.url, broken.url], ca });
    expect(await failureOf(resolver.resolve('gone.test'))).toBe('nxdomain');
    expect(broken.queries.length).toBe(before);
  });

  it('treats an unknown name the same way', async () => {
    const resolver = createDohResolver({ resolvers: [doh.url], ca });
    expect(await failureOf(resolver.resolve('never-configured.test'))).toBe('nxdomain');
  });

  it('reports a name with no A or AAAA records', async () => {
    const resolver = createDohResolver({ resolvers: [doh.url], ca });
    expect(await failureOf(resolver.resolve('empty.test'))).toBe('no_addresses');
  });

  it('rejects an answer with an endless CNAME chain instead of chasing it', async () => {
    const resolver = createDohResolver({ resolvers: [doh.url], ca });
    expect(await failureOf(resolver.resolve('loop-a.test'))).toBe('unavailable');
  });

  it('fails over from a resolver that answers SERVFAIL to the next one', async () => {
    const resolver = createDohResolver({ resolvers: [broken.url, doh.url], ca });
    expect(await resolver.resolve('v4only.test')).toEqual([{ address: '1.1.1.1', family: 4, ttl: 0 }]);
  });

  it('fails over from a resolver that refuses connections to a live one', async () => {
    const resolver = createDohResolver({ resolvers: [await deadResolverUrl(), doh.url], ca });
    expect(await resolver.resolve('dual.test')).toHaveLength(2);
  });

  it('fails over from a resolver that never answers once its timeout passes', async () => {
    const silent = await startSilentServer();
    try {
      // Silence can only end by the timeout; it is long enough for the live resolver to answer.
      const resolver = createDohResolver({ resolvers: [silent.url, doh.url], ca, timeoutMs: 2_000 });
      const before = doh.queries.length;
      expect(await resolver.resolve('dual.test')).toHaveLength(2);
      await silent.connected;
      expect(doh.queries.slice(before).map((query) => query.name)).toEqual(['dual.test', 'dual.test']);
    } finally {
      await silent.close();
    }
  });

  it('does not trust a resolver whose certificate it cannot verify', async () => {
    const resolver = createDohResolver({ resolvers: [doh.url] });
    expect(await failureOf(resolver.resolve('dual.test'))).toBe('unavailable');
  });

  it('reports DNS as unavailable when every resolver fails', async () => {
    const resolver = createDohResolver({ resolvers: [await deadResolverUrl(), broken.url], ca });
    expect(await failureOf(resolver.resolve('dual.test'))).toBe('unavailable');
  });

  it('refuses a name DNS cannot carry without sending it anywhere', async () => {
    const before = doh.queries.length;
    const resolver = createDohResolver({ resolvers: [doh.url], ca });
    expect(await failureOf(resolver.resolve(`${'a'.repeat(64)}.test`))).toBe('invalid_name');
    expect(await failureOf(resolver.resolve('a..test'))).toBe('invalid_name');
    expect(doh.queries.length).toBe(before);
  });
});
