import { isIPv4, isIPv6 } from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket } from 'dns-packet';
import ipaddr from 'ipaddr.js';

/**
 * One A or AAAA question out and its answer in, over the DNS wire format (RFC 1035) as
 * `dns-packet` reads and writes it. What stays ours is policy: which names we ask for, that the
 * answer echoes our question, and how far a CNAME chain is followed.
 */

export type AddressRecordType = 'A' | 'AAAA';

export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

// A chain longer than this is a loop or an abuse; resolvers themselves stop well before.
const MAX_CNAME_HOPS = 16;

export class DnsMessageError extends Error {
  override readonly name = 'DnsMessageError';
}

export interface AddressAnswer {
  readonly rcode: number;
  readonly addresses: ReadonlyArray<{ readonly address: string; readonly ttl: number }>;
}

/** The name in the form we send and compare, checked against the DNS limits (63 bytes a label, 253 in all). */
function queryName(name: string): string {
  const bare = name.replace(/\.$/, '');
  const valid = name.length <= 253 && bare.split('.').every((label) => /^[a-z0-9_-]{1,63}$/i.test(label));
  if (!valid) throw new DnsMessageError(`not a valid DNS name: ${JSON.stringify(name)}`);
  return bare.toLowerCase();
}

/** A recursive query (RD set) with ID 0, as RFC 8484 recommends for cache friendliness. */
export function encodeQuery(name: string, type: AddressRecordType): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id: 0,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type, class: 'IN', name: queryName(name) }],
  });
}

function decode(message: Buffer): DecodedPacket {
  try {
    return dnsPacket.decode(message);
  } catch (error) {
    throw new DnsMessageError('malformed DNS message', { cause: error });
  }
}

/**
 * dns-packet reads an A or AAAA record's data as a fixed-length address without checking the
 * record's length, so an address that does not come out as a literal marks a malformed answer.
 * IPv6 is written in the RFC 5952 form, the one our logs and vetting see everywhere else.
 */
function formatAddress(data: string, type: AddressRecordType): string {
  if (type === 'A' && isIPv4(data)) return data;
  if (type === 'AAAA' && isIPv6(data)) return ipaddr.IPv6.parse(data).toRFC5952String();
  throw new DnsMessageError(`${type} record of the wrong length`);
}

/**
 * The addresses a response gives for `name`, following CNAME records inside the answer
 * section. The question must echo ours, so a response to some other query is never used.
 */
export function parseAddressAnswer(message: Buffer, name: string, type: AddressRecordType): AddressAnswer {
  const packet = decode(message);
  if (packet.id !== 0 || packet.type !== 'response') throw new DnsMessageError('not a response to our query');
  if (packet.flag_tc) throw new DnsMessageError('truncated response');
  const rcode = (packet.flags ?? 0) & 0x000f;

  const wanted = queryName(name);
  const questions = packet.questions ?? [];
  if (questions.length !== 1) throw new DnsMessageError('response does not echo exactly one question');
  const [question] = questions as [(typeof questions)[number]];
  if (question.name.toLowerCase() !== wanted || question.type !== type) {
    throw new DnsMessageError('response answers a different question');
  }
  if (rcode !== RCODE.NOERROR) return { rcode, addresses: [] };

  const records = (packet.answers ?? []).filter((record) => record.type !== 'OPT' && record.class === 'IN');
  const ownedBy = (owner: string) => (record: Answer) => record.name.toLowerCase() === owner;

  let current = wanted;
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    const addresses = records
      .filter(ownedBy(current))
      .flatMap((record) => (record.type === type ? [{ address: formatAddress(record.data, type), ttl: record.ttl ?? 0 }] : []));
    if (addresses.length > 0) return { rcode, addresses };
    const alias = records.filter(ownedBy(current)).find((record) => record.type === 'CNAME');
    if (alias?.type !== 'CNAME') return { rcode, addresses: [] };
    current = alias.data.toLowerCase();
  }
  throw new DnsMessageError('CNAME chain too long');
}
