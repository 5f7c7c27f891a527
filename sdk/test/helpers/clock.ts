import type { Clock } from '../../src';

/**
 * A clock whose sleeps return at once and move its time forward, recording each requested
 * delay: tests assert the waits the SDK chose without spending them.
 */
export function fakeClock(startMs = Date.UTC(2025, 0, 1)): Clock & { sleeps: number[]; time: number } {
  const fake = {
    time: startMs,
    sleeps: [] as number[],
    now: () => fake.time,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      fake.sleeps.push(ms);
      fake.time += ms;
    },
  };
  return fake;
}
