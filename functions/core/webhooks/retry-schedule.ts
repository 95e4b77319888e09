/**
 * When outbound webhook deliveries are tried again (DESIGN §2c, Svix's published schedule): at
 * once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure (8 attempts, about
 * 27.6 h in all), each wait jittered by ±20 % so that many deliveries failing together (a
 * receiver down for a while) do not all come back at the same instant.
 */

/** Seconds to wait after attempt n fails before attempt n + 1 (index n - 1). */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** Attempts in all: the first, at once, and one per entry of the schedule. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;

/** Each wait is the schedule's, times a uniform factor in [1 - JITTER, 1 + JITTER]. */
export const RETRY_JITTER = 0.2;

/** An endpoint that has failed every attempt for this long is disabled (Svix: `endpoint_failure_disable_after=120h`). */
export const AUTO_DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/**
 * The wait in milliseconds before the attempt after `failedAttempt` (1-based), jittered; undefined
 * when `failedAttempt` was the last. `random` is a uniform number in [0, 1) (injected by tests).
 */
export function retryDelayMs(failedAttempt: number, random: () => number = Math.random): number | undefined {
  if (!Number.isInteger(failedAttempt) || failedAttempt < 1) throw new RangeError(`attempt must be a positive integer, not ${failedAttempt}`);
  const base = RETRY_SCHEDULE_SECONDS[failedAttempt - 1];
  if (base === undefined) return undefined;
  const factor = 1 - RETRY_JITTER + 2 * RETRY_JITTER * random();
  return Math.round(base * 1000 * factor);
}

/** Whether an endpoint failing since `failingSince` (ISO) is to be disabled at `now`. */
export function failedLongEnough(failingSince: string, now: Date): boolean {
  return now.getTime() - Date.parse(failingSince) >= AUTO_DISABLE_AFTER_MS;
}
