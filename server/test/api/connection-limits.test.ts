import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMaxConnections } from '../../src/http/connection-limits';
import { startTestApp, type TestApp } from '../support/app';
import { until } from '@doppel/core/testing/held-route';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_REQUEST_TIMEOUT_SECONDS: '1', DOPPEL_MAX_CONNECTIONS: '8' } });
});
afterAll(() => t.close());

interface RawConnection {
  socket: net.Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
}

async function connect(): Promise<RawConnection> {
  const { port } = new URL(t.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.on('error', () => {});
  return { socket, closed };
}

function parse(raw: string) {
  const [head, body] = raw.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head!.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body!) };
}

describe('a stalled request', () => {
  const stalledCreate = (auth: string) =>
    `POST /api/v1/swaps HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"type":`;

  it('is cut off once its body stops arriving, with validation_error in the envelope', async () => {
    const account = await t.createAccount();
    const { socket, closed } = await connect();
    socket.write(stalledCreate(`Authorization: Bearer ${account.apiKey}\r\n`));
    const answer = parse(await closed);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: { code: 'validation_error', message: 'The request did not arrive completely in time.', request_id: answer.headers['x-request-id'] },
    });
  });

  it('is cut off after its one answer when it was refused before the body (401)', async () => {
    const { socket, closed } = await connect();
    socket.write(stalledCreate(''));
    const raw = await closed;
    expect(raw.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(parse(raw).body.error.code).toBe('unauthorized');
  });

  it('is cut off when its headers stop arriving', async () => {
    const { socket, closed } = await connect();
    socket.write('GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(parse(await closed).body.error.code).toBe('validation_error');
  });

  it('answers malformed HTTP in the envelope too', async () => {
    const { socket, closed } = await connect();
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    const answer = parse(await closed);
    expect([answer.status, answer.body.error.code, answer.body.error.message]).toEqual([400, 'validation_error', 'The request is not valid HTTP.']);
  });
});

describe('the connection cap', () => {
  it('closes connections past DOPPEL_MAX_CONNECTIONS at once and serves again when they go', async () => {
    const open = await Promise.all(Array.from({ length: 8 }, connect));
    await until(async () => (await new Promise<number>((resolve) => t.app.server.getConnections((_, n) => resolve(n)))) === 8, 'eight connections');
    const extra = await connect();
    expect(await extra.closed).toBe('');
    for (const c of open) c.socket.destroy();
    await until(async () => (await new Promise<number>((resolve) => t.app.server.getConnections((_, n) => resolve(n)))) === 0, 'no connections');
    expect((await t.request('/healthz')).status).toBe(200);
  });

  it('leaves the database pool and a reserve of descriptors out of the default', () => {
    expect(defaultMaxConnections(20_000, 10)).toBe(9_864);
    expect(defaultMaxConnections(1024, 10)).toBe(376);
    expect(defaultMaxConnections(300, 10)).toBe(64);
  });
});
