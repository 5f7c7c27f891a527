import { cancelableSwapStatuses, type SwapStatus } from '@doppel/contract';
import { DASHBOARD_API_PREFIX, dashboardContract, type SwapDetail } from '@doppel/contract/dashboard';
import { toPublicSwap } from '@doppel/core/tasks/public-swap';
import { decodeSwapCursor } from '@doppel/core/tasks/swap-cursor';
import { cancelSwap as cancelKeySwap } from '@doppel/core/tasks/finish-swap';
import { findUserSwap, listScopedSwaps } from '@doppel/core/tasks/swaps';
import type { SwapRow } from '@doppel/core/db/schema';
import { tsRest } from '../routes/ts-rest';
import { findEventSwapId, listDeliveries, redeliver, type WebhookEventView } from '@doppel/core/webhooks/deliveries';
import { DashboardApiError, notFound } from './errors';
import { sessionOf } from './session-guard';
import { SwapInputKeysSchema } from './stored-inputs';

const isCancelable = (status: SwapStatus) => (cancelableSwapStatuses as readonly SwapStatus[]).includes(status);

function previewsOf(swap: SwapRow): SwapDetail['previews'] {
  const parsed = SwapInputKeysSchema.safeParse(swap.inputs);
  // A row whose inputs say nothing of storage (none in production) simply has no previews.
  if (!parsed.success) return [];
  const inputs = parsed.data;
  const src = (role: string, index: number) => `${DASHBOARD_API_PREFIX}/swaps/${swap.id}/previews/${role}/${index}`;
  return [
    ...inputs.sources.map((s, index) => ({ role: 'source' as const, index, kind: s.kind, src: src('source', index) })),
    { role: 'target', index: 0, kind: inputs.target.kind, src: src('target', 0) },
    ...(swap.result_key ? [{ role: 'result' as const, index: 0, kind: inputs.target.kind, src: src('result', 0) }] : []),
  ];
}

const toDelivery = (event: WebhookEventView): SwapDetail['deliveries'][number] => ({
  id: event.id,
  event: event.event,
  url: event.url,
  status: event.status,
  created_at: event.createdAt.toISOString(),
  next_attempt_at: event.nextAttemptAt?.toISOString() ?? null,
  attempts: event.attempts.map((a) => ({
    attempt: a.attempt,
    started_at: a.startedAt.toISOString(),
    status_code: a.statusCode,
    duration_ms: a.latencyMs,
    error: a.error,
  })),
});

export const listSwaps = tsRest.route(dashboardContract.listSwaps, async ({ request, query }) => {
  const after = query.cursor === undefined ? null : decodeSwapCursor(query.cursor);
  if (after === null && query.cursor !== undefined) throw new DashboardApiError('validation_error', 'cursor: not a next_cursor of this list');
  const page = await listScopedSwaps(
    request.server.deps.db,
    { userId: sessionOf(request).userId },
    { status: query.status, type: query.type },
    { limit: query.limit, after },
  );
  return { status: 200, body: { data: page.rows.map(toPublicSwap), next_cursor: page.nextCursor } };
});

export const getSwap = tsRest.route(dashboardContract.getSwap, async ({ request, params }) => {
  const { db } = request.server.deps;
  const swap = await findUserSwap(db, sessionOf(request).userId, params.swapId);
  if (!swap) throw notFound('swap');
  const deliveries = await listDeliveries(db, swap.id);
  return {
    status: 200,
    body: {
      swap: toPublicSwap(swap),
      cancelable: isCancelable(swap.status),
      previews: previewsOf(swap),
      deliveries: deliveries.map(toDelivery),
    },
  };
});

export const cancelSwap = tsRest.route(dashboardContract.cancelSwap, async ({ request, params }) => {
  const { db } = request.server.deps;
  const swap = await findUserSwap(db, sessionOf(request).userId, params.swapId);
  if (!swap) throw notFound('swap');
  // The API's cancel, as the key that created the swap would call it.
  const after = await cancelKeySwap(db, swap.api_key_id, swap.id);
  return { status: 200, body: toPublicSwap(after ?? swap) };
});

export const resendDelivery = tsRest.route(dashboardContract.resendDelivery, async ({ request, params }) => {
  const { db, boss } = request.server.deps;
  const swapId = await findEventSwapId(db, params.deliveryId);
  const owned = swapId && (await findUserSwap(db, sessionOf(request).userId, swapId));
  if (!owned || !(await redeliver(db, boss, params.deliveryId))) throw notFound('delivery');
  return { status: 202, body: { queued: true as const } };
});
