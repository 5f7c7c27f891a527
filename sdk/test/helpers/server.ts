import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorStatusByCode, type ErrorCode } from '@doppel/contract';

export interface ScriptedResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/swaps?limit=2`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** `hang` never answers (for timeouts); `drop` destroys the socket (for connection errors). */
export type Reply = ScriptedResponse | 'hang' | 'drop';

export interface TestServer {
  /** Origin, e.g. `http://127.0.0.1:40123`. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on loopback answering each request with whatever `reply` returns for it. */
export async function startServer(reply: (request: RecordedRequest, index: number) => Reply): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const answer = reply(recorded, requests.length - 1);
      if (answer === 'hang') return;
      if (answer === 'drop') return void req.socket.destroy();
      const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      const contentType = typeof answer.body === 'string' ? 'text/html' : 'application/json; charset=utf-8';
      res.writeHead(answer.status, { 'content-type': contentType, ...answer.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers the n-th request with the n-th response; a request beyond the script fails the test loudly. */
export function scripted(...responses: Reply[]): (request: RecordedRequest, index: number) => Reply {
  return (request, index) => responses[index] ?? unexpected(request);
}

/** The header `numberedAttempts` (helpers/client) puts each attempt's number in, from 1. */
export const ATTEMPT_HEADER = 'x-test-attempt';

/**
 * Answers the client's n-th attempt with the n-th response, by the number the attempt carries
 * rather than by its arrival: an attempt the client gave up on before it reached the server
 * does not shift the script.
 */
export function byAttempt(...responses: Reply[]): (request: RecordedRequest) => Reply {
  return (request) => responses[Number(request.headers[ATTEMPT_HEADER]) - 1] ?? unexpected(request);
}

const unexpected = (request: RecordedRequest): Reply => ({ status: 599, body: { unexpected: `${request.method} ${request.url}` } });

/** The spec's error response for a code: its status and `{ error: { code, message, request_id } }`. */
export function errorReply(code: ErrorCode, headers: Record<string, string> = {}, requestId = `req_${code}`): ScriptedResponse {
  return {
    status: errorStatusByCode[code],
    body: { error: { code, message: `message for ${code}`, request_id: requestId } },
    headers,
  };
}
