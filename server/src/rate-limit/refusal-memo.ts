import type { BudgetState } from '@doppel/core/rate-limit/request-budget';

/** Entries past their time are swept once the memo holds this many. */
const SWEEP_AT = 10_000;

/**
 * Refused keys, until the moment their budget can free up, so that a key hammering over its
 * limit costs no database round trip. Exact: admissions only ever add to a key's window, so
 * nothing another process does can free the budget earlier than the refusal said. The memo's
 * deadline is counted from before the database was asked, so it lapses early, never late, and
 * the database decides again.
 */
export class RefusalMemo {
  private readonly refusals = new Map<string, { state: BudgetState; untilMs: number }>();

  /** The refusal still standing for this key, with its Retry-After brought up to date. */
  recall(apiKeyId: string, nowMs = Date.now()): BudgetState | undefined {
    const memo = this.refusals.get(apiKeyId);
    if (!memo) return undefined;
    const leftMs = memo.untilMs - nowMs;
    if (leftMs <= 0) {
      this.refusals.delete(apiKeyId);
      return undefined;
    }
    return { ...memo.state, retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)), resetInMs: leftMs };
  }

  /** Notes the database's answer to a request sent at `askedAtMs` (local clock). */
  note(apiKeyId: string, state: BudgetState, askedAtMs: number): void {
    if (!state.exceeded) return;
    if (this.refusals.size >= SWEEP_AT) this.sweep(askedAtMs);
    this.refusals.set(apiKeyId, { state, untilMs: askedAtMs + state.resetInMs });
  }

  private sweep(nowMs: number): void {
    for (const [key, memo] of this.refusals) if (memo.untilMs <= nowMs) this.refusals.delete(key);
  }
}
