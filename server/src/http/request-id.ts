import type { FastifyInstance } from 'fastify';
import { randomToken } from '@doppel/core/random-token';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A fresh unguessable id per request. An id sent by the client is never adopted: it could
 * collide with another caller's, or smuggle arbitrary text into logs.
 */
export function newRequestId(): string {
  return `req_${randomToken(12)}`;
}

/** Echoes the id on every response, errors and 404s included. */
export function exposeRequestId(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
