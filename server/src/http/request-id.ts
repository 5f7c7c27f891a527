import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A fresh unguessable id per request. An id sent by the client is never adopted: it could
 * collide with another caller's, or smuggle arbitrary text into logs.
 */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url')}`;
}

/** Echoes the id on every response, errors and 404s included. */
export function exposeRequestId(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
