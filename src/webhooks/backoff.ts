/** Seconds before each retry: quick at first, then at most hourly. */
const STEPS_S = [10, 30, 120, 600, 1800, 3600];
export const RETRY_WINDOW_MS = 24 * 3600_000;

/**
 * When to try again after the given failed attempt (1-based), with ±20 % jitter so a receiver that
 * was down is not hit by every queued delivery in the same second when it comes back.
 */
export function retryDelayMs(failedAttempt: number, random: () => number = Math.random): number {
  const base = STEPS_S[Math.min(failedAttempt, STEPS_S.length) - 1] * 1000;
  return Math.round(base * (0.8 + 0.4 * random()));
}
