import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received, for anything that must hash or sign the bytes. */
    rawBody?: Buffer;
  }
}

/**
 * Accepts `application/json` bodies only. Every other content type (multipart, forms, text, or
 * a body without one) then fails with fastify's media-type error, answered as 415. Parsing is
 * delegated to fastify's own JSON parser to keep its prototype-poisoning protection.
 */
export function acceptJsonOnly(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body as Buffer;
    // fastify's parser is typed for strings but parses buffers as well (secure-json-parse).
    parseJson(request, body as unknown as string, done);
  });
}
