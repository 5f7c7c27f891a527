import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Decides which IP addresses and host names the server may fetch from. Every address is first
 * canonicalised (IPv6 forms that carry an IPv4 address are judged by that IPv4 address), then
 * refused when it lies in a non-public range, unless the operator allow-listed that range.
 * Cloud metadata endpoints are refused even when allow-listed: opening a private range for an
 * internal media host must never also expose instance credentials.
 */

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** A network and its prefix length, as `ipaddr.js` matches them. */
export type Cidr = readonly [IpAddress, number];

export interface AddressPolicy {
  /** Non-public ranges the operator lets through (DOPPEL_ALLOW_PRIVATE_CIDRS). */
  readonly allowPrivate: readonly Cidr[];
}

export type Verdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOWED: Verdict = { allowed: true };
const refused = (reason: string): Verdict => ({ allowed: false, reason });

/**
 * Only the canonical literal forms count as an address: dotted decimal with four parts for IPv4,
 * and IPv6 without a zone. `ipaddr.js` also reads `0x7f.1`, `2130706433` or `0177.0.0.1`, which
 * some clients would connect to and others would resolve as names, so those are refused here.
 */
export function parseIp(text: string): IpAddress | null {
  const canonical = isIPv4(text) || (isIPv6(text) && !text.includes('%'));
  return canonical ? ipaddr.parse(text) : null;
}

export function parseCidr(text: string): Cidr {
  const trimmed = text.trim();
  const [addressText = ''] = trimmed.split('/');
  const address = parseIp(addressText);
  try {
    if (!address) throw new Error('not a canonical address');
    const whole = address.kind() === 'ipv4' ? 32 : 128;
    return ipaddr.parseCIDR(trimmed.includes('/') ? trimmed : `${trimmed}/${whole}`);
  } catch (error) {
    throw new Error(`Invalid CIDR "${text}": expected an address and prefix such as 10.0.0.0/8 or fd00::/8`, {
      cause: error,
    });
  }
}

export function createAddressPolicy(options: { allowPrivateCidrs?: readonly string[] } = {}): AddressPolicy {
  return { allowPrivate: (options.allowPrivateCidrs ?? []).map(parseCidr) };
}

export function cidrContains([network, prefix]: Cidr, address: IpAddress): boolean {
  return network.kind() === address.kind() && address.match(network, prefix);
}

const ranges = (list: ReadonlyArray<readonly [string, string]>) =>
  list.map(([cidr, label]) => ({ cidr: parseCidr(cidr), label }));

// IANA special-purpose registries, restricted to the entries that are not globally reachable.
const NON_PUBLIC_V4 = ranges([
  ['0.0.0.0/8', 'unspecified ("this network")'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared address space (CGNAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
]);

const NON_PUBLIC_V6 = ranges([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['2001::/23', 'IETF protocol assignments (Teredo, benchmarking, ORCHID)'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['5f00::/16', 'segment routing'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
]);

// Everything routable on the IPv6 internet is allocated from 2000::/3; the rest is reserved.
const GLOBAL_UNICAST_V6 = parseCidr('2000::/3');

const METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, OCI, DigitalOcean instance metadata
  '169.254.169.253', // AWS VPC DNS
  '169.254.169.123', // AWS time sync
  '169.254.170.2', // AWS ECS task metadata
  '169.254.170.23', // AWS EKS pod identity
  '100.100.100.200', // Alibaba Cloud metadata
  '192.0.0.192', // Oracle Cloud legacy metadata
  'fd00:ec2::254', // AWS metadata over IPv6
  'fd00:ec2::253',
  'fd00:ec2::23',
  'fd00:ec2::123',
].map(parseCidr);

/**
 * IPv6 ranges whose addresses carry an IPv4 address at a fixed byte offset: IPv4-mapped,
 * IPv4-translated, IPv4-compatible, 6to4 and the NAT64 well-known prefix. Each of them can end up
 * delivering packets to that IPv4 host.
 */
const EMBEDDING_V4 = [
  { cidr: parseCidr('::ffff:0:0/96'), offset: 12 },
  { cidr: parseCidr('::ffff:0:0:0/96'), offset: 12 },
  { cidr: parseCidr('::/96'), offset: 12 },
  { cidr: parseCidr('2002::/16'), offset: 2 },
  { cidr: parseCidr('64:ff9b::/96'), offset: 12 },
];
// `::` and `::1` lie inside the IPv4-compatible range but are judged as IPv6 addresses.
const NOT_EMBEDDING_V4 = parseCidr('::/120');

/** The IPv4 address an IPv6 address stands for, when it embeds one. */
export function embeddedIpv4(address: IpAddress): IpAddress | null {
  if (address.kind() !== 'ipv6' || cidrContains(NOT_EMBEDDING_V4, address)) return null;
  const embedding = EMBEDDING_V4.find(({ cidr }) => cidrContains(cidr, address));
  if (!embedding) return null;
  const bytes = address.toByteArray();
  return ipaddr.fromByteArray(bytes.slice(embedding.offset, embedding.offset + 4));
}

/** The address to judge: the embedded IPv4 address when there is one, else the address itself. */
export function canonicalAddress(address: IpAddress): IpAddress {
  return embeddedIpv4(address) ?? address;
}

function nonPublicRange(address: IpAddress): string | null {
  const table = address.kind() === 'ipv4' ? NON_PUBLIC_V4 : NON_PUBLIC_V6;
  const hit = table.find((range) => cidrContains(range.cidr, address));
  if (hit) return hit.label;
  if (address.kind() === 'ipv6' && !cidrContains(GLOBAL_UNICAST_V6, address)) return 'reserved';
  return null;
}

const isMetadata = (address: IpAddress) => METADATA_ADDRESSES.some((cidr) => cidrContains(cidr, address));

/** Whether the server may connect to this IP address (text as resolved or written in a URL). */
export function vetAddress(text: string, policy: AddressPolicy): Verdict {
  const parsed = parseIp(text);
  if (!parsed) return refused('not an IP address');
  const canonical = canonicalAddress(parsed);
  if (isMetadata(parsed) || isMetadata(canonical)) return refused('cloud metadata address');
  const range = nonPublicRange(canonical);
  if (range === null) return ALLOWED;
  if (policy.allowPrivate.some((cidr) => cidrContains(cidr, canonical))) return ALLOWED;
  return refused(`${range} address`);
}

const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
]);

// Suffixes that only ever name hosts inside a private network or on the machine itself.
const PRIVATE_SUFFIXES = ['localhost', 'internal', 'local', 'localdomain', 'home.arpa', 'intranet', 'lan'];

/** Lower-cased, without the trailing dot of a fully qualified name. */
export function normaliseHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

/**
 * Whether a host name may be resolved at all. Names that are not public by construction are
 * refused before any DNS traffic; single-label names never name a public host.
 */
export function vetHostname(hostname: string): Verdict {
  const name = normaliseHostname(hostname);
  if (METADATA_NAMES.has(name)) return refused('cloud metadata host name');
  if (PRIVATE_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) {
    return refused('private host name');
  }
  if (!name.includes('.')) return refused('single-label host name');
  return ALLOWED;
}
