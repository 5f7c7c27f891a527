const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Waits before the 2nd, 3rd, ... attempt of an event; the first goes out immediately. Eight
 * attempts spread over 27 h 35 min (before jitter), so a receiver that is down for a day still
 * gets the event. Documented in docs/webhooks.md.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** Jitter only lengthens a wait, so the schedule never gets shorter than documented. */
export const MAX_JITTER_FRACTION = 0.2;

/**
 * How long to wait after the scheduled attempt at `step` (0 for the first) failed, or null when
 * the schedule is used up. The jitter keeps receivers that failed together (an outage) from
 * being retried in one burst.
 */
export function retryDelayMs(delays: readonly number[], step: number, random: () => number = Math.random): number | null {
  const base = delays[step];
  if (base === undefined) return null;
  return Math.round(base * (1 + MAX_JITTER_FRACTION * random()));
}
