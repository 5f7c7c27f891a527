import dnsPacket, { type Answer } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { DnsMessageError, encodeQuery, parseAddressAnswer } from '../../src/media/dns-message';

/** A resolver's response to an A question for `name`, with these answers. */
function response(options: { name?: string; type?: 'A' | 'AAAA'; id?: number; flags?: number; answers?: Answer[] }): Buffer {
  return dnsPacket.encode({
    type: 'response',
    id: options.id ?? 0,
    flags: options.flags ?? dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE,
    questions: [{ name: options.name ?? 'media.example.com', type: options.type ?? 'A', class: 'IN' }],
    answers: options.answers ?? [],
  });
}

const a = (name: string, data: string): Answer => ({ name, type: 'A', class: 'IN', ttl: 60, data });
const cname = (name: string, data: string): Answer => ({ name, type: 'CNAME', class: 'IN', ttl: 60, data });

const refusal = (message: Buffer, type: 'A' | 'AAAA' = 'A') => {
  try {
    parseAddressAnswer(message, 'media.example.com', type);
  } catch (error) {
    expect(error).toBeInstanceOf(DnsMessageError);
    return (error as Error).message;
  }
  throw new Error('the answer was accepted');
};

describe('DNS messages', () => {
  it('asks one recursive question with ID 0', () => {
    const query = dnsPacket.decode(encodeQuery('Media.Example.com.', 'AAAA'));
    expect(query).toMatchObject({ id: 0, type: 'query', flag_rd: true });
    expect(query.questions).toEqual([{ name: 'media.example.com', type: 'AAAA', class: 'IN' }]);
  });

  it('refuses to encode a name DNS cannot carry', () => {
    expect(() => encodeQuery(`${'a'.repeat(64)}.example.com`, 'A')).toThrow(DnsMessageError);
    expect(() => encodeQuery('a..example.com', 'A')).toThrow(DnsMessageError);
  });

  it('follows CNAME records inside the answer to the addresses, with their TTLs', () => {
    const message = response({
      answers: [cname('media.example.com', 'cdn.example.net'), cname('cdn.example.net', 'edge.example.net'), a('edge.example.net', '93.184.215.14')],
    });
    expect(parseAddressAnswer(message, 'media.example.com', 'A')).toEqual({
      rcode: 0,
      addresses: [{ address: '93.184.215.14', ttl: 60 }],
    });
  });

  it('writes IPv6 answers in their RFC 5952 form', () => {
    const message = response({ type: 'AAAA', answers: [{ name: 'media.example.com', type: 'AAAA', class: 'IN', ttl: 5, data: '2001:db8:0:0:1:0:0:1' }] });
    expect(parseAddressAnswer(message, 'media.example.com', 'AAAA').addresses).toEqual([{ address: '2001:db8::1:0:0:1', ttl: 5 }]);
  });

  it('ignores addresses of names the answer does not lead to', () => {
    const message = response({ answers: [a('elsewhere.example.com', '10.0.0.1')] });
    expect(parseAddressAnswer(message, 'media.example.com', 'A').addresses).toEqual([]);
  });

  it.each([
    ['another name', response({ name: 'other.example.com', answers: [a('other.example.com', '1.1.1.1')] }), 'A'],
    ['another type', response({ type: 'AAAA' }), 'A'],
  ] as const)('refuses a response that echoes %s', (_case, message, type) => {
    expect(refusal(message, type)).toBe('response answers a different question');
  });

  it('refuses a response with another ID, and a query', () => {
    expect(refusal(response({ id: 7 }))).toBe('not a response to our query');
    expect(refusal(encodeQuery('media.example.com', 'A'))).toBe('not a response to our query');
  });

  it('refuses a truncated response', () => {
    expect(refusal(response({ flags: dnsPacket.TRUNCATED_RESPONSE }))).toBe('truncated response');
  });

  it('refuses a message cut short, and an A record of the wrong length', () => {
    const whole = response({ answers: [a('media.example.com', '1.2.3.4')] });
    expect(refusal(whole.subarray(0, whole.length - 3))).toMatch(/malformed|wrong length/);
    const short = Buffer.from(whole);
    short.writeUInt16BE(2, whole.length - 6);
    expect(refusal(short.subarray(0, whole.length - 2))).toMatch(/malformed|wrong length/);
  });

  it('refuses a compression pointer that points forward', () => {
    const message = response({ answers: [a('media.example.com', '1.2.3.4')] });
    const looped = Buffer.from(message);
    // Replace the answer's owner name with a pointer to itself: a loop, unless pointers must point back.
    const owner = message.indexOf(Buffer.from('\x05media', 'latin1'), 12 + 1);
    looped.writeUInt16BE(0xc000 | owner, owner);
    expect(refusal(looped)).toBe('malformed DNS message');
  });

  it('stops at a CNAME loop', () => {
    const message = response({ answers: [cname('media.example.com', 'loop.example.net'), cname('loop.example.net', 'media.example.com')] });
    expect(refusal(message)).toBe('CNAME chain too long');
  });
});
