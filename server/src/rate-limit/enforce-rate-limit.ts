import type { FastifyInstance } from 'fastify';
import { callerOf } from '../auth/authenticate';
import { ApiError } from '@doppel/core/errors';
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
 * requests are refused from memory. Must follow `requireApiKey`.
 */
export function enforceRateLimit(app: FastifyInstance): void {
  const { db, config } = app.deps;
  const refusals = new RefusalMemo();
  app.decorateRequest('rateLimit', null);

  app.addHook('onRequest', async (request, reply) => {
    const { apiKeyId } = callerOf(request);
    let state = refusals.recall(apiKeyId);
    if (!state) {
      const askedAt = Date.now();
      state = await spendRequest(db, apiKeyId, config.rateLimit);
      refusals.note(apiKeyId, state, askedAt);
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
