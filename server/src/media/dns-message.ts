/**
 * The DNS wire format (RFC 1035) as far as DNS over HTTPS needs it: one A or AAAA question out,
 * its answer section in. Written by hand so every byte of an untrusted answer is bounds-checked.
 */

export type AddressRecordType = 'A' | 'AAAA';

export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

const TYPE_CODE = { A: 1, AAAA: 28 } as const;
const TYPE_CNAME = 5;
const CLASS_IN = 1;
const HEADER_LENGTH = 12;
// A chain longer than this is a loop or an abuse; resolvers themselves stop well before.
const MAX_CNAME_HOPS = 16;

export class DnsMessageError extends Error {
  override readonly name = 'DnsMessageError';
}

export interface AddressAnswer {
  readonly rcode: number;
  readonly addresses: ReadonlyArray<{ readonly address: string; readonly ttl: number }>;
}

/** Labels of a host name, checked against the DNS limits (63 bytes a label, 253 in all). */
function labelsOf(name: string): string[] {
  const labels = name.replace(/\.$/, '').split('.');
  const valid =
    name.length <= 253 && labels.every((label) => /^[a-z0-9_-]{1,63}$/i.test(label));
  if (!valid) throw new DnsMessageError(`not a valid DNS name: ${JSON.stringify(name)}`);
  return labels;
}

/** A recursive query (RD set) with ID 0, as RFC 8484 recommends for cache friendliness. */
export function encodeQuery(name: string, type: AddressRecordType): Buffer {
  const labels = labelsOf(name);
  const header = Buffer.alloc(HEADER_LENGTH);
  header.writeUInt16BE(0x0100, 2);
  header.writeUInt16BE(1, 4);
  const qname = Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.of(label.length), Buffer.from(label, 'ascii')])),
    Buffer.of(0),
  ]);
  const question = Buffer.alloc(4);
  question.writeUInt16BE(TYPE_CODE[type], 0);
  question.writeUInt16BE(CLASS_IN, 2);
  return Buffer.concat([header, qname, question]);
}

class Reader {
  constructor(
    private readonly message: Buffer,
    public offset = 0,
  ) {}

  private need(count: number, at = this.offset): void {
    if (at + count > this.message.length) throw new DnsMessageError('truncated DNS message');
  }

  u8(): number {
    this.need(1);
    return this.message.readUInt8(this.offset++);
  }

  u16(): number {
    this.need(2);
    const value = this.message.readUInt16BE(this.offset);
    this.offset += 2;
    return value;
  }

  u32(): number {
    this.need(4);
    const value = this.message.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  bytes(count: number): Buffer {
    this.need(count);
    const slice = this.message.subarray(this.offset, this.offset + count);
    this.offset += count;
    return slice;
  }

  /** A possibly compressed name; pointers must point backwards, which rules out loops. */
  name(): string {
    const labels: string[] = [];
    let position = this.offset;
    let resumeAt: number | null = null;
    for (;;) {
      this.need(1, position);
      const length = this.message.readUInt8(position);
      if ((length & 0xc0) === 0xc0) {
        this.need(2, position);
        const target = this.message.readUInt16BE(position) & 0x3fff;
        if (target >= position) throw new DnsMessageError('forward compression pointer');
        resumeAt ??= position + 2;
        position = target;
      } else if (length & 0xc0) {
        throw new DnsMessageError('unknown label type');
      } else if (length === 0) {
        this.offset = resumeAt ?? position + 1;
        return labels.join('.').toLowerCase();
      } else {
        this.need(length + 1, position);
        labels.push(this.message.toString('latin1', position + 1, position + 1 + length));
        position += length + 1;
      }
    }
  }
}

function formatIpv6(bytes: Buffer): string {
  const groups = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2));
  // Compress the longest run of two or more zero groups, as RFC 5952 asks.
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  const head = hex.slice(0, bestStart).join(':');
  const tail = hex.slice(bestStart + bestLength).join(':');
  return `${head}::${tail}`;
}

interface ResourceRecord {
  owner: string;
  type: number;
  ttl: number;
  data: Buffer;
  dataOffset: number;
}

/**
 * The addresses a response gives for `name`, following CNAME records inside the answer
 * section. The question must echo ours, so a response to some other query is never used.
 */
export function parseAddressAnswer(message: Buffer, name: string, type: AddressRecordType): AddressAnswer {
  const reader = new Reader(message);
  const id = reader.u16();
  const flags = reader.u16();
  const questions = reader.u16();
  const answers = reader.u16();
  reader.u32();
  if (id !== 0 || !(flags & 0x8000)) throw new DnsMessageError('not a response to our query');
  if (flags & 0x0200) throw new DnsMessageError('truncated response');
  const rcode = flags & 0x000f;

  const wanted = labelsOf(name).join('.').toLowerCase();
  if (questions !== 1) throw new DnsMessageError('response does not echo exactly one question');
  const questionName = reader.name();
  const questionType = reader.u16();
  reader.u16();
  if (questionName !== wanted || questionType !== TYPE_CODE[type]) {
    throw new DnsMessageError('response answers a different question');
  }
  if (rcode !== RCODE.NOERROR) return { rcode, addresses: [] };

  const records: ResourceRecord[] = [];
  for (let i = 0; i < answers; i++) {
    const owner = reader.name();
    const recordType = reader.u16();
    const recordClass = reader.u16();
    const ttl = reader.u32();
    const length = reader.u16();
    const dataOffset = reader.offset;
    const data = reader.bytes(length);
    if (recordClass === CLASS_IN) records.push({ owner, type: recordType, ttl, data, dataOffset });
  }

  let current = wanted;
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    const addresses = records
      .filter((record) => record.owner === current && record.type === TYPE_CODE[type])
      .map((record) => ({ address: formatAddress(record.data, type), ttl: record.ttl }));
    if (addresses.length > 0) return { rcode, addresses };
    const alias = records.find((record) => record.owner === current && record.type === TYPE_CNAME);
    if (!alias) return { rcode, addresses: [] };
    current = new Reader(message, alias.dataOffset).name();
  }
  throw new DnsMessageError('CNAME chain too long');
}

function formatAddress(data: Buffer, type: AddressRecordType): string {
  if (type === 'A') {
    if (data.length !== 4) throw new DnsMessageError('A record of the wrong length');
    return Array.from(data).join('.');
  }
  if (data.length !== 16) throw new DnsMessageError('AAAA record of the wrong length');
  return formatIpv6(data);
}
