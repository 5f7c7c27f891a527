import type { PublicSwap } from '@doppel/contract';
import type { SwapRow } from '../db/schema';

/** A stored swap as the API shows it (spec 2.1); internal columns stay inside. */
export function toPublicSwap(row: SwapRow): PublicSwap {
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
