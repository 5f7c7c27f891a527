import { contract } from '@doppel/contract';
import { callerOf } from '../auth/authenticate';
import { ApiError } from '@doppel/core/errors';
import * as swapList from '@doppel/core/tasks/swaps';
import { toPublicSwap } from '@doppel/core/tasks/public-swap';
import { decodeSwapCursor } from '@doppel/core/tasks/swap-cursor';
import { tsRest } from './ts-rest';

export const listSwaps = tsRest.route(contract.listSwaps, async ({ request, query }) => {
  const after = query.cursor === undefined ? null : decodeSwapCursor(query.cursor);
  if (after === null && query.cursor !== undefined) {
    throw new ApiError('validation_error', 'cursor: is not a next_cursor returned by GET /swaps');
  }
  const page = await swapList.listSwaps(request.server.deps.db, callerOf(request).apiKeyId, { limit: query.limit, after });
  return { status: 200, body: { data: page.rows.map(toPublicSwap), next_cursor: page.nextCursor } };
});
