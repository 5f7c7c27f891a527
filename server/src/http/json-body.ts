import type { FastifyInstance } from 'fastify';
import { ApiError } from '@doppel/core/errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received, for anything that must hash or sign the bytes. */
    rawBody?: Buffer;
  }
}

export const notJson = () => new ApiError('unsupported_media_type', 'Content-Type must be application/json.');

/**
 * Accepts `application/json` bodies only. Every other content type (multipart, forms, text, or
 * a body without one) then fails with fastify's media-type error, answered as 415. Parsing is
 * delegated to fastify's own JSON parser to keep its prototype-poisoning protection.
 */
export function acceptJsonOnly(app: FastifyInstance): void {
  // fastify skips content-type parsing for a request with neither a body nor a Content-Type, but
  // the spec requires application/json on every POST: an empty, untyped POST is a 415 as well.
  app.addHook('preParsing', async (request) => {
    if (request.method === 'POST' && request.headers['content-type'] === undefined) throw notJson();
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    request.rawBody = body;
    // What fastify's parser would do with the buffer itself (secure-json-parse decodes it as UTF-8).
    parseJson(request, body.toString('utf8'), done);
  });
}
