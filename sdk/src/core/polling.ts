import type { Clock } from '../internal/clock';
import { WaitTimeoutError } from './errors';

/** Spec section 1: poll every 5 seconds for up to 2 minutes. */
export const DEFAULT_POLL_INTERVAL_MS = 5_000;
export const DEFAULT_WAIT_TIMEOUT_MS = 120_000;

export interface WaitOptions<T> {
  /** Pause between two polls. Default 5000 ms. */
  intervalMs?: number;
  /** Give up (with WaitTimeoutError) after this long. Default 120000 ms; GIFs and videos may need more. */
  timeoutMs?: number;
  /** Aborting stops the wait at once and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called with every snapshot polled, the terminal one included. */
  onProgress?: (snapshot: T) => void;
}

export interface PollTarget<T> {
  id: string;
  fetch: (signal: AbortSignal | undefined) => Promise<T>;
  isTerminal: (snapshot: T) => boolean;
}

/** Polls until the task is terminal and returns that snapshot, whatever its outcome. */
export async function pollUntilTerminal<T>(target: PollTarget<T>, options: WaitOptions<T>, clock: Clock): Promise<T> {
  const intervalMs = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const { signal } = options;
  const deadline = clock.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    const snapshot = await target.fetch(signal);
    options.onProgress?.(snapshot);
    if (target.isTerminal(snapshot)) return snapshot;
    const remaining = deadline - clock.now();
    if (remaining <= 0) throw new WaitTimeoutError(target.id, timeoutMs, snapshot);
    await clock.sleep(Math.min(intervalMs, remaining), signal);
  }
}
