import {
  AUTO_DISABLE_AFTER_MS,
  failedLongEnough,
  MAX_DELIVERY_ATTEMPTS,
  RETRY_JITTER,
  RETRY_SCHEDULE_SECONDS,
  retryDelayMs,
} from '#core/webhooks/retry-schedule';

describe('webhook retry schedule', () => {
  it("is Svix's: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt, 8 attempts in all (about 27.6 h)", () => {
    // Assess
    expect(RETRY_SCHEDULE_SECONDS).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
    expect(MAX_DELIVERY_ATTEMPTS).toBe(8);
    expect(RETRY_SCHEDULE_SECONDS.reduce((sum, s) => sum + s, 0) / 3600).toBeCloseTo(27.6, 1);
  });

  it('waits the scheduled time exactly with no jitter drawn (random 0.5)', () => {
    // Act
    const waits = [1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelayMs(attempt, () => 0.5));
    // Assess
    expect(waits).toEqual(RETRY_SCHEDULE_SECONDS.map((seconds) => seconds * 1000));
  });

  it.each([1, 2, 3, 4, 5, 6, 7])('keeps the wait after attempt %i within ±20 %% of the schedule, both bounds reachable', (attempt) => {
    // Prepare
    const base = (RETRY_SCHEDULE_SECONDS[attempt - 1] as number) * 1000;
    // Act
    const lowest = retryDelayMs(attempt, () => 0) as number;
    const highest = retryDelayMs(attempt, () => 0.999_999_999) as number;
    const drawn = Array.from({ length: 200 }, () => retryDelayMs(attempt) as number);
    // Assess
    expect(RETRY_JITTER).toBe(0.2);
    expect(lowest).toBe(Math.round(base * 0.8));
    expect(highest).toBeLessThanOrEqual(Math.round(base * 1.2));
    expect(highest).toBeGreaterThan(Math.round(base * 1.19));
    for (const wait of drawn) {
      expect(wait).toBeGreaterThanOrEqual(Math.round(base * 0.8));
      expect(wait).toBeLessThanOrEqual(Math.round(base * 1.2));
    }
    expect(new Set(drawn).size).toBeGreaterThan(1);
  });

  it('has no wait after the eighth attempt, and refuses an attempt number that is not a positive integer', () => {
    // Assess
    expect(retryDelayMs(8)).toBeUndefined();
    expect(retryDelayMs(9)).toBeUndefined();
    expect(() => retryDelayMs(0)).toThrow(RangeError);
    expect(() => retryDelayMs(1.5)).toThrow(RangeError);
  });

  it('disables after 5 days of failures, not a millisecond earlier', () => {
    // Prepare
    const since = '2026-11-20T10:00:00.000Z';
    // Assess
    expect(AUTO_DISABLE_AFTER_MS).toBe(120 * 3600 * 1000);
    expect(failedLongEnough(since, new Date(Date.parse(since) + AUTO_DISABLE_AFTER_MS - 1))).toBe(false);
    expect(failedLongEnough(since, new Date(Date.parse(since) + AUTO_DISABLE_AFTER_MS))).toBe(true);
  });
});
