import { describe, expect, it } from 'vitest';
import { createAddressPolicy, parseCidr, vetAddress, vetHostname } from '../../src/media/address-policy';

const strict = createAddressPolicy();

describe('address policy', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '"this network"'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF'],
    ['192.0.2.10', 'documentation'],
    ['192.88.99.1', '6to4 relay'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard'],
    ['2001::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['4000::1', 'reserved'],
  ])('refuses %s (%s)', (address, reason) => {
    const verdict = vetAddress(address, strict);
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed === false && verdict.reason).toContain(reason);
  });

  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['0:0:0:0:0:ffff:192.168.0.1', 'IPv4-mapped, uncompressed'],
    ['::ffff:0:10.0.0.1', 'IPv4-translated private'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::a00:1', 'IPv4-compatible private in hex'],
    ['2002:7f00:1::', '6to4 around loopback'],
    ['2002:c0a8:101::1', '6to4 around 192.168.1.1'],
    ['64:ff9b::10.0.0.1', 'NAT64 around private'],
    ['64:ff9b::7f00:1', 'NAT64 around loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 around the metadata address'],
  ])('unwraps the IPv4 inside %s (%s) and refuses it', (address) => {
    expect(vetAddress(address, strict).allowed).toBe(false);
  });

  it.each(['93.184.215.14', '1.1.1.1', '8.8.8.8', '2606:4700::6810:84e5', '2a00:1450:4001:82b::200e'])(
    'lets the public address %s through',
    (address) => {
      expect(vetAddress(address, strict)).toEqual({ allowed: true });
    },
  );

  it.each(['::ffff:8.8.8.8', '2002:808:808::1', '64:ff9b::808:808'])(
    'judges %s by the public IPv4 address it carries',
    (address) => {
      expect(vetAddress(address, strict)).toEqual({ allowed: true });
    },
  );

  it.each(['localhost', '127.0.0.1.nip.io.', 'not-an-ip', '0x7f.1', '2130706433', '0177.0.0.1', '127.1', 'fe80::1%eth0'])(
    'treats %s as no address at all unless it is a canonical literal',
    (text) => {
      const verdict = vetAddress(text, strict);
      expect(verdict).toEqual({ allowed: false, reason: 'not an IP address' });
    },
  );

  it('lets an allow-listed private range through, and only that range', () => {
    const policy = createAddressPolicy({ allowPrivateCidrs: ['10.20.0.0/16', 'fd00:1234::/32'] });
    expect(vetAddress('10.20.3.4', policy).allowed).toBe(true);
    expect(vetAddress('::ffff:10.20.3.4', policy).allowed).toBe(true);
    expect(vetAddress('fd00:1234::9', policy).allowed).toBe(true);
    expect(vetAddress('10.21.0.1', policy).allowed).toBe(false);
    expect(vetAddress('127.0.0.1', policy).allowed).toBe(false);
    expect(vetAddress('fd00:1235::9', policy).allowed).toBe(false);
  });

  it.each(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200', '::ffff:169.254.169.254', '2002:a9fe:a9fe::'])(
    'refuses the cloud metadata address %s even when its whole range is allow-listed',
    (address) => {
      const policy = createAddressPolicy({ allowPrivateCidrs: ['0.0.0.0/0', '::/0'] });
      expect(vetAddress(address, policy)).toEqual({ allowed: false, reason: 'cloud metadata address' });
    },
  );

  it.each(['10.0.0.0/33', 'fd00::/129', '10.0.0.0/', '10.0.0/8', 'banana', '10.0.0.0/8/8', '::1/-1'])(
    'rejects the malformed allow-list entry %s at start-up',
    (cidr) => {
      expect(() => parseCidr(cidr)).toThrow(/Invalid CIDR/);
    },
  );

  it.each([
    'localhost',
    'LOCALHOST.',
    'app.localhost',
    'metadata',
    'metadata.google.internal',
    'instance-data',
    'instance-data.ec2.internal',
    'anything.internal',
    'printer.local',
    'nas.home.arpa',
    'intranet',
  ])('refuses the host name %s before resolving it', (name) => {
    expect(vetHostname(name).allowed).toBe(false);
  });

  it.each(['media.example.com', 'cdn.test', 'internal.example.com', 'localhost.example.com'])(
    'resolves the ordinary host name %s',
    (name) => {
      expect(vetHostname(name)).toEqual({ allowed: true });
    },
  );
});
