import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createTestCa } from './test-ca';

/**
 * A real HTTPS server on loopback with a certificate from the test CA, answering each path with
 * a route, and recording every connection and request so tests can see where traffic went.
 */

export type MediaRoute = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export interface RecordedConnection {
  readonly localAddress: string;
  /** The SNI name the client sent, or false without one. */
  readonly servername: string | false;
  /** True when the client resumed an earlier TLS session instead of a full handshake. */
  readonly resumed: boolean;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  /** Settles when the response closes: `finished` is false if the client hung up first. */
  readonly closed: Promise<{ finished: boolean }>;
}

export interface MediaServer {
  readonly port: number;
  /** `https://<host>:<port><path>`, for any name the certificate covers. */
  url(host: string, path: string): string;
  readonly connections: RecordedConnection[];
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export const MEDIA_SERVER_NAMES = ['media.test', '*.media.test', '127.0.0.1', '::1'];

export async function startMediaServer(options: {
  routes: Readonly<Record<string, MediaRoute>>;
  /** Loopback only: '127.0.0.1' (default) or '::1'. */
  listen?: '127.0.0.1' | '::1';
  /** Names in the certificate; MEDIA_SERVER_NAMES by default. */
  names?: readonly string[];
}): Promise<MediaServer> {
  const ca = await createTestCa();
  const { key, cert } = await ca.issue(options.names ?? MEDIA_SERVER_NAMES);
  const connections: RecordedConnection[] = [];
  const requests: RecordedRequest[] = [];

  const server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '/';
      const closed = new Promise<{ finished: boolean }>((resolve) =>
        res.on('close', () => resolve({ finished: res.writableFinished })),
      );
      requests.push({ method: req.method ?? '', path, headers: req.headers, body, closed });
      const route = options.routes[new URL(path, 'https://x').pathname];
      if (route) route(req, res, body);
      else res.writeHead(404).end('no such route');
    });
  });
  server.on('secureConnection', (socket: TLSSocket) =>
    connections.push({
      localAddress: socket.localAddress ?? '',
      servername: (socket as TLSSocket & { servername: string | false }).servername,
      resumed: socket.isSessionReused(),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, options.listen ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    url: (host, path) => `https://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    connections,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with these bytes and headers (Content-Length included unless `chunked`). */
export function sendBytes(body: Buffer, headers: Record<string, string> = {}, options: { chunked?: boolean } = {}): MediaRoute {
  return (_req, res) => {
    res.writeHead(200, options.chunked ? headers : { 'content-length': String(body.length), ...headers });
    res.end(body);
  };
}

/** A redirect to `location`, resolved by the client against the request URL. */
export function redirectTo(location: string, status = 302): MediaRoute {
  return (_req, res) => res.writeHead(status, { location }).end();
}

export function answerStatus(status: number): MediaRoute {
  return (_req, res) => res.writeHead(status).end();
}

/**
 * Streams `total` bytes in chunks, honouring back-pressure and stopping when the client hangs
 * up. `declaredLength` is what Content-Length says (absent if undefined), true or not.
 */
export function streamBytes(total: number, declaredLength?: number): MediaRoute {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return (_req, res) => {
    res.writeHead(200, declaredLength === undefined ? {} : { 'content-length': String(declaredLength) });
    let sent = 0;
    const pump = () => {
      while (sent < total && !res.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}

/** Sends headers, then never finishes the body: for total-timeout tests. */
export function stallAfterHeaders(): MediaRoute {
  return (_req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('partial');
  };
}
