import { contract } from '@doppel/contract';
import { callerOf } from '../auth/authenticate';
import { notFound } from '@doppel/core/errors';
import { toPublicSwap } from '@doppel/core/tasks/public-swap';
import { findSwap } from '@doppel/core/tasks/swaps';
import { tsRest } from './ts-rest';

export const getSwap = tsRest.route(contract.getSwap, async ({ request, params }) => {
  const swap = await findSwap(request.server.deps.db, callerOf(request).apiKeyId, params.taskId);
  if (!swap) throw notFound();
  return { status: 200, body: toPublicSwap(swap) };
});
