import { contract } from '@doppel/contract';
import { notFound } from '@doppel/core/errors';
import { toPublicSwap } from '@doppel/core/tasks/public-swap';
import { findSwapQuery } from '@doppel/core/tasks/swaps';
import { ReadWithSpend } from '../rate-limit/read-with-spend';
import { tsRest } from './ts-rest';

/** The swap, read with the request's spend. */
export const getSwapRead = new ReadWithSpend(contract.getSwap, (request, caller, db) => {
  const params = contract.getSwap.pathParams.safeParse(request.params);
  return params.success ? { query: findSwapQuery(db, caller.apiKeyId, params.data.taskId) } : undefined;
});

export const getSwap = tsRest.route(contract.getSwap, async ({ request }) => {
  const [swap] = getSwapRead.rowsOf(request);
  if (!swap) throw notFound();
  return { status: 200, body: toPublicSwap(swap) };
});
