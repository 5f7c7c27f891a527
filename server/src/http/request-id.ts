import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

const ID_BYTES = 12;
/** Random bytes drawn from the CSPRNG in one call for this many ids, instead of a call per request. */
const IDS_PER_DRAW = 256;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * A fresh unguessable id per request. An id sent by the client is never adopted: it could
 * collide with another caller's, or smuggle arbitrary text into logs.
 */
export function newRequestId(): string {
  if (used + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * IDS_PER_DRAW);
    used = 0;
  }
  used += ID_BYTES;
  return `req_${pool.toString('base64url', used - ID_BYTES, used)}`;
}

/** Echoes the id on every response, errors and 404s included. */
export function exposeRequestId(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
