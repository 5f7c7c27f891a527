import type { SwapType } from '@doppel/contract';

/** Swap types whose render takes seconds to an hour, where an image swap takes a fraction of a second. */
const LONG_RENDERS: readonly SwapType[] = ['gif', 'video'];

/**
 * The pg-boss group of a swap's job: a long render is grouped by the user who pays for it (one
 * user may hold many keys), so `rendersPerUser` bounds what one user's renders hold. Image swaps
 * are not grouped: they are short, and a user's burst of them passes quickly.
 */
export function swapJobGroup(type: SwapType, userId: string): { id: string } | undefined {
  return LONG_RENDERS.includes(type) ? { id: userId } : undefined;
}

/**
 * Long renders of one user a worker process runs at once: half of its swap slots, at least one.
 * With two slots or more, a user who queues many GIFs or videos leaves a slot for everyone else's
 * swaps, and other users' renders get their turns beside theirs.
 */
export function rendersPerUser(swapSlots: number): number {
  return Math.max(1, Math.floor(swapSlots / 2));
}
