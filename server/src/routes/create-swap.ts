import { contract, isTerminalSwapStatus, type PublicSwap } from '@doppel/contract';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { callerOf } from '../auth/authenticate';
import { ApiError } from '../errors';
import { createSwapTask } from '../intake/create-swap';
import {
  claimIdempotencyKey,
  finishIdempotentCreate,
  releaseIdempotencyKey,
  requestHash,
} from '../intake/idempotency';
import { toPublicSwap } from '../tasks/public-swap';
import { findSwap } from '../tasks/swaps';
import { tsRest } from './ts-rest';

/** Aborts when the client goes away, so waits and fetches end with it (the task itself does not). */
function clientGone(request: IncomingMessage, response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  request.once('aborted', () => controller.abort());
  return controller.signal;
}

export const createSwap = tsRest.route(contract.createSwap, async ({ request, reply, body, headers, query }) => {
  const deps = request.server.deps;
  const caller = callerOf(request);
  // @ts-rest/fastify types `reply` with fastify 4's generic order, which hides `raw`'s real type.
  const signal = clientGone(request.raw, reply.raw as unknown as ServerResponse);
  const idempotencyKey = headers['idempotency-key'];

  if (idempotencyKey) {
    const claim = await claimIdempotencyKey(deps.db, caller.apiKeyId, idempotencyKey, requestHash(body), {
      // A concurrent retry waits as long as the first request can take, then gives up politely.
      maxWaitMs: deps.config.media.fetchTimeoutMs * 2 + deps.config.scan.waitSeconds * 1000,
      signal,
    });
    if (claim.kind === 'replay') {
      reply.header('idempotent-replayed', 'true');
      return { status: claim.response.status as 201, body: claim.response.body as PublicSwap };
    }
  }

  let swap: PublicSwap;
  try {
    swap = await createSwapTask(deps, caller, body, {
      signal,
      inTransaction: async (trx, created) => {
        if (idempotencyKey) await finishIdempotentCreate(trx, caller.apiKeyId, idempotencyKey, { status: 201, body: created });
      },
    });
  } catch (error) {
    if (idempotencyKey) {
      // A refusal is final and replayed as such; anything the caller may retry frees the key.
      if (error instanceof ApiError && error.status < 500) {
        await finishIdempotentCreate(deps.db, caller.apiKeyId, idempotencyKey, {
          status: error.status,
          body: error.toEnvelope(request.id),
        });
      } else {
        await releaseIdempotencyKey(deps.db, caller.apiKeyId, idempotencyKey);
      }
    }
    throw error;
  }

  if (query.wait === 'true' && !isTerminalSwapStatus(swap.status)) {
    const latest = await deps.notifications.waitFor(
      'doppel_swap',
      swap.id,
      async () => {
        const row = await findSwap(deps.db, caller.apiKeyId, swap.id);
        if (row && isTerminalSwapStatus(row.status)) return row;
        if (row) swap = toPublicSwap(row);
        return undefined;
      },
      { timeoutMs: deps.config.waitBudgetSeconds * 1000, signal },
    );
    if (latest) swap = toPublicSwap(latest);
  }
  return { status: 201, body: swap };
});
