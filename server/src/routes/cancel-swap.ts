import { contract } from '@doppel/contract';
import { callerOf } from '../auth/authenticate';
import { notFound } from '@doppel/core/errors';
import { toPublicSwap } from '@doppel/core/tasks/public-swap';
import * as swaps from '@doppel/core/tasks/finish-swap';
import { tsRest } from './ts-rest';

export const cancelSwap = tsRest.route(contract.cancelSwap, async ({ request, params }) => {
  const swap = await swaps.cancelSwap(request.server.deps.db, callerOf(request).apiKeyId, params.taskId);
  if (!swap) throw notFound();
  return { status: 200, body: toPublicSwap(swap) };
});
