import type { MessagePort } from 'node:worker_threads';
import type { PreparedSource } from '../swap/prepared-source';

/**
 * Who prepares a swap's uncached source: the swap's own thread, once it has analysed the target,
 * or a helper task started beside it on another thread of the pool. On an idle pool the helper
 * prepares the source while the swap analyses the target, so a cold swap costs the longer of the
 * two rather than their sum; on a busy pool the helper starts late, and whichever side comes
 * first does the work. Both sides take the claim with one atomic compare-and-swap on shared
 * memory, so the source is never prepared twice and the swap never waits for a helper that has
 * not started (with every thread waiting like that, none would be left to run the helpers).
 */
export type SourceClaim = Int32Array;

const UNCLAIMED = 0;
const CLAIMANT = { swap: 1, helper: 2 } as const;

export function newSourceClaim(): SourceClaim {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** True for the side that takes the claim first; the other side leaves the source to it. */
export function takeClaim(claim: SourceClaim, by: keyof typeof CLAIMANT): boolean {
  return Atomics.compareExchange(claim, 0, UNCLAIMED, CLAIMANT[by]) === UNCLAIMED;
}

/** What a helper sends to its swap: the source it prepared for the mapping at `index`, or null when it failed. */
export interface HelpedSource {
  index: number;
  prepared: PreparedSource | null;
}

/**
 * The swap thread's side of the helpers' port: the source a helper prepared for a mapping, or
 * null when the helper failed (the swap then prepares it itself, and reports its own error).
 * A helper's message can arrive before the swap asks for it, or after.
 */
export function helperResults(port: MessagePort): (index: number) => Promise<PreparedSource | null> {
  const results = new Map<number, { promise: Promise<PreparedSource | null>; resolve: (prepared: PreparedSource | null) => void }>();
  const entry = (index: number) => {
    let found = results.get(index);
    if (!found) {
      let resolve!: (prepared: PreparedSource | null) => void;
      const promise = new Promise<PreparedSource | null>((done) => (resolve = done));
      found = { promise, resolve };
      results.set(index, found);
    }
    return found;
  };
  port.on('message', ({ index, prepared }: HelpedSource) => entry(index).resolve(prepared));
  return (index) => entry(index).promise;
}
