import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { createServer as createTcpServer, isIPv4, isIPv6, type AddressInfo, type Socket } from 'node:net';
import { createTestCa } from './test-ca';

/**
 * A DNS-over-HTTPS server on 127.0.0.1 (RFC 8484, POST and GET) that answers each name with
 * whatever the test says. Its encoder is written independently of the production parser, and
 * owner names are compressed (0xc00c) as real resolvers do.
 */

export interface DohAnswer {
  readonly addresses?: readonly string[];
  /** Answer with a CNAME to this name, followed by the target's own records. */
  readonly cname?: string;
  readonly rcode?: 'NOERROR' | 'SERVFAIL' | 'NXDOMAIN';
  readonly ttl?: number;
}

export type DohAnswers =
  | Readonly<Record<string, DohAnswer>>
  | ((name: string, type: 'A' | 'AAAA') => DohAnswer | undefined);

export interface DohQuery {
  readonly name: string;
  readonly type: 'A' | 'AAAA';
  readonly method: string;
}

export interface DohServer {
  readonly url: string;
  readonly queries: DohQuery[];
  close(): Promise<void>;
}

const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;
const TYPES = { 1: 'A', 28: 'AAAA' } as const;

export async function startDohServer(options: { answers: DohAnswers }): Promise<DohServer> {
  const ca = await createTestCa();
  const { key, cert } = await ca.issue(['127.0.0.1']);
  const queries: DohQuery[] = [];
  const lookup = (name: string, type: 'A' | 'AAAA') =>
    typeof options.answers === 'function' ? options.answers(name, type) : options.answers[name];

  const server = createServer({ key, cert }, (req, res) => {
    readBody(req).then((body) => {
      const message = req.method === 'GET' ? Buffer.from(new URL(req.url ?? '/', 'https://x').searchParams.get('dns') ?? '', 'base64url') : body;
      const question = parseQuestion(message);
      queries.push({ name: question.name, type: question.type, method: req.method ?? '' });
      reply(res, answerFor(message, question, lookup));
    }, () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/dns-query`,
    queries,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A resolver URL on a loopback port where nothing listens: connections are refused. */
export async function deadResolverUrl(): Promise<string> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `https://127.0.0.1:${port}/dns-query`;
}

export interface SilentServer {
  readonly url: string;
  /**
   * Settles once a client has connected. The kernel completes a loopback TCP handshake on its
   * own, so a client that connected is seen here even if it gave up before we ran.
   */
  readonly connected: Promise<void>;
  close(): Promise<void>;
}

/** A resolver that accepts TCP connections and then says nothing, not even a TLS handshake. */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let connect!: () => void;
  const connected = new Promise<void>((resolve) => (connect = resolve));
  const server = createTcpServer((socket) => {
    connect();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/dns-query`,
    connected,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, message: Buffer): void {
  res.writeHead(200, { 'content-type': 'application/dns-message', 'content-length': String(message.length) });
  res.end(message);
}

interface Question {
  readonly name: string;
  readonly type: 'A' | 'AAAA';
  /** The question section exactly as sent, echoed back in the answer. */
  readonly section: Buffer;
}

function parseQuestion(message: Buffer): Question {
  const labels: string[] = [];
  let at = 12;
  for (let length = message[at] ?? 0; length > 0; length = message[at] ?? 0) {
    labels.push(message.toString('ascii', at + 1, at + 1 + length));
    at += length + 1;
  }
  const typeCode = message.readUInt16BE(at + 1);
  const type = TYPES[typeCode as keyof typeof TYPES];
  if (!type) throw new Error(`test DoH server only knows A and AAAA, got ${typeCode}`);
  return { name: labels.join('.').toLowerCase(), type, section: message.subarray(12, at + 5) };
}

function encodeName(name: string): Buffer {
  return Buffer.concat([...name.split('.').map((label) => Buffer.concat([Buffer.of(label.length), Buffer.from(label)])), Buffer.of(0)]);
}

function record(owner: Buffer, type: number, ttl: number, data: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(1, 2);
  fixed.writeUInt32BE(ttl, 4);
  fixed.writeUInt16BE(data.length, 8);
  return Buffer.concat([owner, fixed, data]);
}

function addressBytes(address: string): Buffer | null {
  if (isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  if (!isIPv6(address)) return null;
  // A dotted-quad tail (::ffff:10.0.0.1) becomes two hex groups first.
  const hex = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  const [head = '', tail] = hex.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = [...left, ...Array<string>(tail === undefined ? 0 : 8 - left.length - right.length).fill('0'), ...right];
  const bytes = Buffer.alloc(16);
  all.forEach((group, i) => bytes.writeUInt16BE(parseInt(group, 16), i * 2));
  return bytes;
}

function answerFor(query: Buffer, question: Question, lookup: (name: string, type: 'A' | 'AAAA') => DohAnswer | undefined): Buffer {
  const records: Buffer[] = [];
  let rcode: number = RCODES.NXDOMAIN;
  let owner: Buffer = Buffer.of(0xc0, 0x0c);
  let name = question.name;
  for (let hop = 0; hop < 20; hop++) {
    const answer = lookup(name, question.type);
    if (!answer) break;
    rcode = RCODES[answer.rcode ?? 'NOERROR'];
    if (rcode !== RCODES.NOERROR) break;
    const ttl = answer.ttl ?? 0;
    if (answer.cname) {
      records.push(record(owner, 5, ttl, encodeName(answer.cname)));
      owner = encodeName(answer.cname);
      name = answer.cname;
      continue;
    }
    for (const address of answer.addresses ?? []) {
      const bytes = addressBytes(address);
      const wanted = question.type === 'A' ? 4 : 16;
      if (bytes?.length === wanted) records.push(record(owner, question.type === 'A' ? 1 : 28, ttl, bytes));
    }
    break;
  }
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8180 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rcode === RCODES.NOERROR ? records.length : 0, 6);
  return Buffer.concat([header, question.section, ...(rcode === RCODES.NOERROR ? records : [])]);
}
