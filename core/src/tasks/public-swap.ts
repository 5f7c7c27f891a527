import type { PublicSwap } from '@doppel/contract';
import type { SwapRow } from '../db/schema';

/** The columns a swap is shown with. */
export const PUBLIC_SWAP_COLUMNS = [
  'id',
  'type',
  'status',
  'credit_cost',
  'progress',
  'created_at',
  'result_url',
  'error',
  'metadata',
  'webhook_url',
] as const satisfies readonly (keyof SwapRow)[];

export type PublicSwapRow = Pick<SwapRow, (typeof PUBLIC_SWAP_COLUMNS)[number]>;

/** A stored swap as the API shows it (spec 2.1); internal columns stay inside. */
export function toPublicSwap(row: PublicSwapRow): PublicSwap {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    credit_cost: row.credit_cost,
    progress: row.progress,
    created_at: row.created_at.toISOString(),
    result_url: row.result_url,
    error: row.error,
    metadata: row.metadata,
    webhook_url: row.webhook_url,
  };
}
