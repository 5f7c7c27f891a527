import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findLiveKey, markKeysUsed } from '@doppel/core/accounts/api-keys';
import type { Db } from '@doppel/core/db/connect';
import { ApiError } from '@doppel/core/errors';
import { NotifiedCache } from '@doppel/core/queue/notified-cache';
import { hashApiKey, looksLikeApiKey } from '@doppel/core/keys/key-format';
import { AuthBlocks, throttledNetwork } from '@doppel/core/auth/auth-throttle';
import { LAST_USED_RESOLUTION_MS, LastUsedRecorder } from './last-used';

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
/** Keys remembered per process; beyond this the oldest are looked up again. */
const CACHED_KEYS = 100_000;

/** The authenticated caller of a route behind `requireApiKey`. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route is not behind requireApiKey');
  return request.caller;
}

/**
 * Spec section 5: `Authorization: Bearer <key>`, looked up by its SHA-256 hash. A missing or
 * malformed header is `unauthorized`; a token matching no live key is `invalid_api_key` and
 * counts as a failed attempt of the client's network (its address; an IPv6 /64). A network over
 * its failure budget has its unknown tokens refused with `rate_limited` (and no longer counted).
 * A live key is never refused by the throttle: keys are 256-bit random values that no
 * one guesses, while a throttle that could refuse them would let anyone who shares a proxy or a
 * NAT with a customer (or spoofs their address) lock that customer out.
 * Live keys are kept in memory, keyed by hash; a revocation reaches every process through
 * `doppel_api_key` (migration 0006) and drops the key at once.
 */
export function requireApiKey(app: FastifyInstance): void {
  const { db, config, notifications } = app.deps;
  const keys = new NotifiedCache<Caller>(notifications, 'doppel_api_key', CACHED_KEYS);
  const blocks = new AuthBlocks(db, notifications, config.rateLimit.authFailuresPerMinute);
  const lastUsed = new LastUsedRecorder(db, (error) => app.log.error({ err: error }, 'could not record last_used_at'));
  app.addHook('onClose', () => lastUsed.close());
  app.decorateRequest('caller', null);

  app.addHook('onRequest', async (request, reply) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) {
      throw new ApiError('unauthorized', 'Send the header Authorization: Bearer <API key>.', {
        headers: { 'www-authenticate': 'Bearer' },
      });
    }

    const hash = looksLikeApiKey(token) ? hashApiKey(token) : undefined;
    const key = hash && (await keys.get(hash.toString('hex'), () => loadCaller(db, hash)));
    if (!key) {
      const network = throttledNetwork(request.ip);
      const block = await blocks.blockOf(network);
      if (block) {
        reply.header('x-ratelimit-reset', String(block.resetAt));
        throw new ApiError('rate_limited', 'Too many failed authentication attempts from this network.', {
          headers: { 'retry-after': String(block.retryAfterSeconds) },
        });
      }
      await blocks.recordFailure(network);
      throw new ApiError('invalid_api_key', 'The API key is not valid or has been revoked.', {
        headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
      });
    }

    lastUsed.touch(key.apiKeyId);
    request.caller = key;
  });
}

/** A live key from the database; one not stamped for a while is stamped at once. */
async function loadCaller(db: Db, hash: Buffer): Promise<Caller | undefined> {
  const row = await findLiveKey(db, hash);
  if (!row) return undefined;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) await markKeysUsed(db, [row.id]);
  return { apiKeyId: row.id, userId: row.user_id };
}
