import { contract, isTerminalSwapStatus, type PublicSwap } from '@doppel/contract';
import type { FastifyRequest } from 'fastify';
import { ServerResponse, type IncomingMessage } from 'node:http';
import { callerOf } from '../auth/authenticate';
import { createSwapTask } from '../intake/create-swap';
import {
  claimIdempotencyKey,
  finishIdempotentCreate,
  type ClaimRef,
  isFinalRefusal,
  releaseIdempotencyKey,
  requestHash,
} from '@doppel/core/intake/idempotency';
import { toPublicSwap } from '@doppel/core/tasks/public-swap';
import { findSwap } from '@doppel/core/tasks/swaps';
import { tsRest } from './ts-rest';

/**
 * The Node response under a ts-rest handler's reply. @ts-rest/fastify types `reply` with fastify
 * 4's generic order, which hides `raw`'s type; fastify's HTTP/1 server always makes it a
 * ServerResponse.
 */
function nodeResponseOf(reply: { raw: unknown }): ServerResponse {
  if (reply.raw instanceof ServerResponse) return reply.raw;
  throw new Error('the reply carries no Node ServerResponse');
}

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
  const signal = clientGone(request.raw, nodeResponseOf(reply));
  // Long polls also end when a shutdown needs the process back; fetches and the create do not.
  const waitSignal = AbortSignal.any([signal, deps.drain.waitsEnded]);
  const idempotencyKey = headers['idempotency-key'];

  await deps.instance.settleReleases();
  let swap: PublicSwap | undefined;
  let held: ClaimRef | undefined;
  if (idempotencyKey) {
    const ref = { apiKeyId: caller.apiKeyId, key: idempotencyKey, ownerInstance: deps.instance.id };
    const claim = await claimIdempotencyKey(deps.db, ref, requestHash(body), {
      // A concurrent retry waits as long as the first request can take, then gives up politely.
      maxWaitMs: deps.config.media.fetchTimeoutMs * 2 + deps.config.scan.waitSeconds * 1000,
      signal: waitSignal,
    });
    if (claim.kind === 'owner') held = { apiKeyId: caller.apiKeyId, key: idempotencyKey, token: claim.token };
    if (claim.kind === 'replay') {
      reply.header('idempotent-replayed', 'true');
      if (claim.response.status !== 201) return { status: claim.response.status as 201, body: claim.response.body as PublicSwap };
      // Same task, shown as it is now (and waited on below, like the first call).
      const created = claim.response.body as PublicSwap;
      const row = await findSwap(deps.db, caller.apiKeyId, created.id);
      swap = row ? toPublicSwap(row) : created;
    }
  }

  const owned = held;
  swap ??= await createSwapTask(deps, caller, body, {
    signal,
    // The key's answer is recorded with the create, or neither is.
    inTransaction: owned && ((trx, created) => finishIdempotentCreate(trx, owned, { status: 201, body: created })),
  }).catch(async (error: unknown) => {
    if (owned && isFinalRefusal(error)) {
      await finishIdempotentCreate(deps.db, owned, { status: error.status, body: error.toEnvelope(request.id) });
    } else if (owned) {
      // Also when the database is down right now: the error below is the answer either way.
      deps.instance.releaseSoon(() => releaseIdempotencyKey(deps.db, owned));
    }
    throw error;
  });

  if (query.wait === 'true' && !isTerminalSwapStatus(swap.status)) swap = await waitForTerminal(request, swap, waitSignal);
  return { status: 201, body: swap };
});

/**
 * The swap once terminal, or its latest known state when the poll budget ends first. The swap
 * is created and charged by then, so a failing lookup answers with the last state seen rather
 * than an error that would invite a second, charged create.
 */
async function waitForTerminal(request: FastifyRequest, swap: PublicSwap, signal: AbortSignal): Promise<PublicSwap> {
  const { deps } = request.server;
  const apiKeyId = callerOf(request).apiKeyId;
  let latest = swap;
  try {
    const terminal = await deps.notifications.waitFor(
      'doppel_swap',
      swap.id,
      async () => {
        const row = await findSwap(deps.db, apiKeyId, swap.id);
        if (row && isTerminalSwapStatus(row.status)) return row;
        if (row) latest = toPublicSwap(row);
        return undefined;
      },
      { timeoutMs: deps.config.waitBudgetSeconds * 1000, signal },
    );
    return terminal ? toPublicSwap(terminal) : latest;
  } catch (error) {
    request.log.error({ err: error, swapId: swap.id }, 'wait=true: lookup failed; answering with the last known state');
    return latest;
  }
}
