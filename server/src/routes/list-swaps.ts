import { contract } from '@doppel/contract';
import { ApiError } from '@doppel/core/errors';
import { toPublicSwap } from '@doppel/core/tasks/public-swap';
import { decodeSwapCursor } from '@doppel/core/tasks/swap-cursor';
import { SWAP_PAGE_ORDER, swapPageOf, swapPageQuery } from '@doppel/core/tasks/swaps';
import { ReadWithSpend } from '../rate-limit/read-with-spend';
import { tsRest } from './ts-rest';

/** Where the page starts (null: at the newest), or undefined when the text is not a cursor this API produced. */
const cursorOf = (text: string | undefined) => (text === undefined ? null : (decodeSwapCursor(text) ?? undefined));

/** The page, read with the request's spend; a request naming no valid cursor gets no read (the handler refuses it). */
export const listSwapsRead = new ReadWithSpend(contract.listSwaps, (request, caller, db) => {
  const query = contract.listSwaps.query.safeParse(request.query);
  const after = query.success ? cursorOf(query.data.cursor) : undefined;
  if (!query.success || after === undefined) return undefined;
  return { query: swapPageQuery(db, { apiKeyId: caller.apiKeyId }, {}, { limit: query.data.limit, after }), orderBy: SWAP_PAGE_ORDER };
});

export const listSwaps = tsRest.route(contract.listSwaps, async ({ request, query }) => {
  if (cursorOf(query.cursor) === undefined) throw new ApiError('validation_error', 'cursor: is not a next_cursor returned by GET /swaps');
  const page = swapPageOf(listSwapsRead.rowsOf(request), query.limit);
  return { status: 200, body: { data: page.rows.map(toPublicSwap), next_cursor: page.nextCursor } };
});
