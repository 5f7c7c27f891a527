import type { FastifyInstance } from 'fastify';
import { callerOf } from '../auth/authenticate';
import { ApiError } from '@doppel/core/errors';
import type { SpendingRead } from './read-with-spend';
import { RefusalMemo } from './refusal-memo';
import { spendRequest, type BudgetState } from '@doppel/core/rate-limit/request-budget';

declare module 'fastify' {
  interface FastifyRequest {
    /** The key's request budget after this request; shown by GET /me. */
    rateLimit: BudgetState | null;
  }
}

/**
 * Spends one request of the caller's budget on every API request, and reports the budget in
 * `x-ratelimit-*` headers. A refused request is not counted; while a refusal stands, the key's
 * requests are refused from memory. The routes of `reads` make their one read in the statement
 * that spends. Must follow `requireApiKey`.
 */
export function enforceRateLimit(app: FastifyInstance, reads: readonly SpendingRead[] = []): void {
  const { db, config } = app.deps;
  const refusals = new RefusalMemo();
  const readsByRoute = new Map<unknown, SpendingRead>(reads.map((read) => [read.route, read]));
  app.decorateRequest('rateLimit', null);

  app.addHook('onRequest', async (request, reply) => {
    const caller = callerOf(request);
    let state = refusals.recall(caller.apiKeyId);
    if (!state) {
      const askedAt = Date.now();
      // ts-rest names each route's contract entry in its config.
      const route = request.routeOptions.config;
      const read = 'tsRestRoute' in route ? readsByRoute.get(route.tsRestRoute) : undefined;
      state = read ? await read.spend(request, caller, db, config.rateLimit) : (await spendRequest(db, caller.apiKeyId, config.rateLimit)).state;
      refusals.note(caller.apiKeyId, state, askedAt);
    }
    request.rateLimit = state;
    reply.headers({
      'x-ratelimit-limit': String(state.limit),
      'x-ratelimit-remaining': String(state.remaining),
      'x-ratelimit-reset': String(state.resetAt),
    });
    if (state.exceeded === 'day') {
      throw new ApiError('rate_limited_daily', 'The daily request cap of this API key is used up until 00:00 UTC.', {
        headers: { 'retry-after': String(state.retryAfterSeconds) },
      });
    }
    if (state.exceeded === 'minute') {
      throw new ApiError('rate_limited', `More than ${state.limit} requests in a minute; slow down.`, {
        headers: { 'retry-after': String(state.retryAfterSeconds) },
      });
    }
  });
}
