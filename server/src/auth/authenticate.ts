import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { ApiError } from '../errors';
import { hashApiKey, looksLikeApiKey } from './api-keys';
import { authBlock, recordAuthFailure } from './auth-throttle';

/** The key (and its user) a request was authenticated with. */
export interface Caller {
  apiKeyId: string;
  userId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

const BEARER = /^Bearer +(\S+) *$/i;
/** `last_used_at` is refreshed at most this often per key, to keep lookups read-only. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The authenticated caller of a route behind `requireApiKey`. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route is not behind requireApiKey');
  return request.caller;
}

/**
 * Spec section 5: `Authorization: Bearer <key>`, looked up by its SHA-256 hash. A missing or
 * malformed header is `unauthorized`; a token matching no live key is `invalid_api_key` and
 * counts as a failed attempt of the client address. An address over its failure budget is
 * refused before its token is even looked at, so a correct guess cannot be confirmed.
 */
export function requireApiKey(app: FastifyInstance): void {
  const { db, config } = app.deps;
  app.decorateRequest('caller', null);

  app.addHook('onRequest', async (request, reply) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) {
      throw new ApiError('unauthorized', 'Send the header Authorization: Bearer <API key>.', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }

    const block = await authBlock(db, request.ip, config.rateLimit.authFailuresPerMinute);
    if (block) {
      reply.header('x-ratelimit-reset', String(block.resetAt));
      throw new ApiError('rate_limited', 'Too many failed authentication attempts from this address.', {
        headers: { 'retry-after': String(block.retryAfterSeconds) },
      });
    }

    const key = looksLikeApiKey(token)
      ? await db
          .selectFrom('api_keys')
          .select(['id', 'user_id', 'last_used_at'])
          .where('key_hash', '=', hashApiKey(token))
          .where('revoked_at', 'is', null)
          .executeTakeFirst()
      : undefined;
    if (!key) {
      await recordAuthFailure(db, request.ip);
      throw new ApiError('invalid_api_key', 'The API key is not valid or has been revoked.', {
        headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
      });
    }

    if (!key.last_used_at || Date.now() - key.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
      await db
        .updateTable('api_keys')
        .set({ last_used_at: sql<Date>`now()` })
        .where('id', '=', key.id)
        .execute();
    }
    request.caller = { apiKeyId: key.id, userId: key.user_id };
  });
}
