import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ApiError } from '@doppel/core/errors';
import { newRequestId, REQUEST_ID_HEADER } from './request-id';

/** File descriptors kept back from client connections: files, DNS, media fetches, the engine. */
const RESERVED_DESCRIPTORS = 256;
/** Without /proc (not Linux), the soft limit most systems start with. */
const ASSUMED_FILE_LIMIT = 1024;

/** This process's soft limit on open files, from /proc/self/limits. */
export function openFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : Number.POSITIVE_INFINITY;
  } catch {
    return ASSUMED_FILE_LIMIT;
  }
}

/**
 * Client connections allowed at once: what the descriptor limit leaves after the database pools
 * (ours, pg-boss's 4, the notification listener) and a reserve, of which each create may need
 * a few for its media fetches, so half of it. Past the cap, new connections are closed at once.
 */
export function defaultMaxConnections(fileLimit: number, dbPoolSize: number): number {
  if (!Number.isFinite(fileLimit)) return 16_384;
  return Math.max(64, Math.floor((fileLimit - dbPoolSize - 5 - RESERVED_DESCRIPTORS) / 2));
}

function rawEnvelope(error: ApiError): string {
  const requestId = newRequestId();
  const body = JSON.stringify(error.toEnvelope(requestId));
  return [
    `HTTP/1.1 ${error.status} ${error.status === 400 ? 'Bad Request' : 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `${REQUEST_ID_HEADER}: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * A request answered before its body was read (401, 429, 404) closes its connection: the unread
 * rest of the body would otherwise be taken for the next request, or stall until the timeout.
 */
export function closeConnectionsWithUnreadBodies(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete) reply.header('connection', 'close');
  });
}

/**
 * Node's `clientError`: a request that could not be read, answered in the envelope before the
 * socket is closed. A request that did not arrive within the request timeout (headers or body
 * stalled) and malformed HTTP are both validation_error: the contract has no 408 or 431.
 */
export function answerClientErrors(log: FastifyBaseLogger) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const message =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request did not arrive completely in time.'
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? 'The request headers are too large.'
          : 'The request is not valid HTTP.';
    log.debug({ err: error }, 'client error');
    if (socket.writable) socket.write(rawEnvelope(new ApiError('validation_error', message)));
    socket.destroy();
  };
}
