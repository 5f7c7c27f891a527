import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_DELAYS_MS, MAX_JITTER_FRACTION, retryDelayMs } from '../../src/webhooks/schedule';

const HOUR = 3_600_000;
const total = (random: () => number) =>
  DEFAULT_RETRY_DELAYS_MS.reduce((sum, _, step) => sum + retryDelayMs(DEFAULT_RETRY_DELAYS_MS, step, random)!, 0);

describe('the webhook retry schedule', () => {
  it('is 8 attempts: immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h', () => {
    expect(DEFAULT_RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
  });

  it('keeps retrying for more than a day whatever the jitter: 27 h 35 min 5 s at the least', () => {
    expect(total(() => 0)).toBe(27 * HOUR + 35 * 60_000 + 5_000);
    expect(total(() => 0)).toBeGreaterThan(24 * HOUR);
  });

  it(`only ever lengthens a wait, by at most ${MAX_JITTER_FRACTION * 100}%`, () => {
    expect(retryDelayMs(DEFAULT_RETRY_DELAYS_MS, 3, () => 0)).toBe(2 * HOUR);
    expect(retryDelayMs(DEFAULT_RETRY_DELAYS_MS, 3, () => 1)).toBe(2.4 * HOUR);
  });

  it('has nothing after the last step: the event is then marked failed', () => {
    expect(retryDelayMs(DEFAULT_RETRY_DELAYS_MS, DEFAULT_RETRY_DELAYS_MS.length, () => 0.5)).toBeNull();
  });
});
