import { isIPv4, isIPv6 } from 'node:net';

/**
 * Decides which IP addresses and host names the server may fetch from. Every address is first
 * canonicalised (IPv6 forms that carry an IPv4 address are judged by that IPv4 address), then
 * refused when it lies in a non-public range, unless the operator allow-listed that range.
 * Cloud metadata endpoints are refused even when allow-listed: opening a private range for an
 * internal media host must never also expose instance credentials.
 */

export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

export interface Cidr {
  readonly network: IpAddress;
  readonly prefix: number;
}

export interface AddressPolicy {
  /** Non-public ranges the operator lets through (DOPPEL_ALLOW_PRIVATE_CIDRS). */
  readonly allowPrivate: readonly Cidr[];
}

export type Verdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOWED: Verdict = { allowed: true };
const refused = (reason: string): Verdict => ({ allowed: false, reason });

export function parseIpv4(text: string): IpAddress | null {
  if (!isIPv4(text)) return null;
  return { family: 4, bytes: Uint8Array.from(text.split('.'), Number) };
}

export function parseIpv6(text: string): IpAddress | null {
  if (!isIPv6(text) || text.includes('%')) return null;
  let normalised = text;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIpv4(tail);
    if (!v4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4.bytes;
    normalised = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = normalised.split('::');
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groupsOf(halves[0]);
  const right = groupsOf(halves[1]);
  const zeros = halves.length === 2 ? 8 - left.length - right.length : 0;
  const groups = [...left, ...Array<string>(zeros).fill('0'), ...right];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return { family: 6, bytes };
}

export function parseIp(text: string): IpAddress | null {
  return parseIpv4(text) ?? parseIpv6(text);
}

export function parseCidr(text: string): Cidr {
  const [addressText = '', prefixText, extra] = text.trim().split('/');
  const network = parseIp(addressText);
  const maxPrefix = network?.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  const wellFormed = prefixText === undefined || /^\d{1,3}$/.test(prefixText);
  if (!network || extra !== undefined || !wellFormed || prefix > maxPrefix) {
    throw new Error(`Invalid CIDR "${text}": expected an address and prefix such as 10.0.0.0/8 or fd00::/8`);
  }
  return { network, prefix };
}

export function createAddressPolicy(options: { allowPrivateCidrs?: readonly string[] } = {}): AddressPolicy {
  return { allowPrivate: (options.allowPrivateCidrs ?? []).map(parseCidr) };
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  if (cidr.network.family !== address.family) return false;
  const whole = Math.floor(cidr.prefix / 8);
  for (let i = 0; i < whole; i++) if (cidr.network.bytes[i] !== address.bytes[i]) return false;
  const rest = cidr.prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((cidr.network.bytes[whole] ?? 0) & mask) === ((address.bytes[whole] ?? 0) & mask);
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

const v4At = (bytes: Uint8Array, offset: number): IpAddress => ({
  family: 4,
  bytes: bytes.slice(offset, offset + 4),
});

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/**
 * The IPv4 address an IPv6 address stands for, when it embeds one: IPv4-mapped (::ffff:0:0/96),
 * IPv4-translated (::ffff:0:0:0/96), IPv4-compatible (::/96), 6to4 (2002::/16) and the NAT64
 * well-known prefix (64:ff9b::/96). Each of them can end up delivering packets to that IPv4 host.
 */
export function embeddedIpv4(address: IpAddress): IpAddress | null {
  if (address.family !== 6) return null;
  const b = address.bytes;
  const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4At(b, 12);
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return v4At(b, 12);
  if (zeros(0, 12) && !zeros(12, 15)) return v4At(b, 12);
  if (startsWith(b, [0x20, 0x02])) return v4At(b, 2);
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b]) && zeros(4, 12)) return v4At(b, 12);
  return null;
}

/** The address to judge: the embedded IPv4 address when there is one, else the address itself. */
export function canonicalAddress(address: IpAddress): IpAddress {
  return embeddedIpv4(address) ?? address;
}

function nonPublicRange(address: IpAddress): string | null {
  const table = address.family === 4 ? NON_PUBLIC_V4 : NON_PUBLIC_V6;
  const hit = table.find((range) => cidrContains(range.cidr, address));
  if (hit) return hit.label;
  if (address.family === 6 && !cidrContains(GLOBAL_UNICAST_V6, address)) return 'reserved';
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
