import { request } from 'node:https';
import type { SecureContextOptions } from 'node:tls';
import {
  DnsMessageError,
  RCODE,
  encodeQuery,
  parseAddressAnswer,
  type AddressAnswer,
  type AddressRecordType,
} from './dns-message';
import { readCappedBody } from './read-capped-body';

/**
 * DNS over HTTPS (RFC 8484). Host names of fetched media are resolved here rather than by the
 * system resolver, so what we vet is exactly what a public resolver says, and nothing on the
 * host (hosts file, search domains, a poisoned local cache) can steer us to an internal name.
 */

export const DEFAULT_DOH_RESOLVERS: readonly string[] = [
  'https://cloudflare-dns.com/dns-query',
  'https://dns.google/dns-query',
];
export const DEFAULT_DOH_TIMEOUT_MS = 3_000;
// A DNS message over UDP/TCP can never exceed 64 KiB, so neither may a DoH body.
const MAX_DNS_MESSAGE_BYTES = 65_535;
const DNS_MESSAGE = 'application/dns-message';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
  readonly ttl: number;
}

export type DnsFailure = 'invalid_name' | 'nxdomain' | 'no_addresses' | 'unavailable';

export class DnsResolutionError extends Error {
  override readonly name = 'DnsResolutionError';
  constructor(
    readonly failure: DnsFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface DohResolver {
  /** All A and AAAA addresses of `hostname`; throws DnsResolutionError when there are none. */
  resolve(hostname: string, options?: { signal?: AbortSignal }): Promise<ResolvedAddress[]>;
}

export interface DohResolverOptions {
  /** Tried in order; the next one is asked when one fails, times out or answers SERVFAIL. */
  resolvers?: readonly string[];
  timeoutMs?: number;
  /** POST (default) or GET with the `dns` parameter; both are RFC 8484. */
  method?: 'POST' | 'GET';
  /** Trusted roots for the resolvers' certificates, replacing the system store (tests). */
  ca?: SecureContextOptions['ca'];
}

export function createDohResolver(options: DohResolverOptions = {}): DohResolver {
  const resolvers = options.resolvers?.length ? options.resolvers : DEFAULT_DOH_RESOLVERS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_DOH_TIMEOUT_MS;
  const method = options.method ?? 'POST';

  const exchange = async (resolver: string, name: string, type: AddressRecordType, signal: AbortSignal) => {
    const query = encodeQuery(name, type);
    const body = await httpsExchange(resolver, query, method, options.ca, signal);
    return parseAddressAnswer(body, name, type);
  };

  return {
    async resolve(hostname, { signal } = {}) {
      const name = hostname.toLowerCase().replace(/\.$/, '');
      try {
        encodeQuery(name, 'A');
      } catch (error) {
        throw new DnsResolutionError('invalid_name', `${hostname} is not a valid DNS name`, { cause: error });
      }

      let lastProblem: unknown;
      for (const resolver of resolvers) {
        signal?.throwIfAborted();
        const attempt = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
        let answers: AddressAnswer[];
        try {
          answers = await Promise.all([exchange(resolver, name, 'A', attempt), exchange(resolver, name, 'AAAA', attempt)]);
        } catch (error) {
          signal?.throwIfAborted();
          lastProblem = error;
          continue;
        }
        if (answers.some((answer) => answer.rcode === RCODE.NXDOMAIN)) {
          throw new DnsResolutionError('nxdomain', `${hostname} does not exist`);
        }
        const failed = answers.find((answer) => answer.rcode !== RCODE.NOERROR);
        if (failed) {
          lastProblem = new Error(`${resolver} answered with RCODE ${failed.rcode}`);
          continue;
        }
        const [v4, v6] = answers as [AddressAnswer, AddressAnswer];
        const addresses: ResolvedAddress[] = [
          ...v4.addresses.map((a) => ({ ...a, family: 4 as const })),
          ...v6.addresses.map((a) => ({ ...a, family: 6 as const })),
        ];
        if (addresses.length === 0) throw new DnsResolutionError('no_addresses', `${hostname} has no addresses`);
        return addresses;
      }
      throw new DnsResolutionError('unavailable', `no DNS-over-HTTPS resolver answered for ${hostname}`, {
        cause: lastProblem,
      });
    },
  };
}

function httpsExchange(
  resolver: string,
  query: Buffer,
  method: 'POST' | 'GET',
  ca: SecureContextOptions['ca'],
  signal: AbortSignal,
): Promise<Buffer> {
  const url = new URL(resolver);
  if (method === 'GET') url.searchParams.set('dns', query.toString('base64url'));
  const headers: Record<string, string | number> = { accept: DNS_MESSAGE };
  if (method === 'POST') Object.assign(headers, { 'content-type': DNS_MESSAGE, 'content-length': query.length });

  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, signal, ...(ca ? { ca } : {}) }, (res) => {
      const type = res.headers['content-type'] ?? '';
      if (res.statusCode !== 200 || !type.toLowerCase().startsWith(DNS_MESSAGE)) {
        res.destroy();
        reject(new DnsMessageError(`${url.origin} answered HTTP ${res.statusCode} ${type}`));
        return;
      }
      readCappedBody(res, {
        maxBytes: MAX_DNS_MESSAGE_BYTES,
        tooLarge: () => new DnsMessageError('DNS message too large'),
        broken: () => new DnsMessageError(`${url.origin} closed the connection mid-answer`),
      }).then(resolve, reject);
    });
    req.on('error', reject);
    req.end(method === 'POST' ? query : undefined);
  });
}
