/**
 * When a failed delivery is tried again. The schedule lists the delay before
 * each retry; the default spreads 9 retries (10 attempts) over about 3 days,
 * the window docs/product-decisions.md §9.4 promises:
 *
 *   retry     1    2      3       4     5     6      7      8      9
 *   delay     5 s  5 min  30 min  2 h   5 h   10 h   14 h   20 h   20 h
 *   elapsed   5 s  ~5 min ~35 min ~2.6h ~7.6h ~17.6h ~31.6h ~51.6h ~71.6h (≈ 2.98 days)
 *
 * Each delay gets ±20 % random jitter, so the deliveries an outage failed
 * together do not all come back in the same second, while the whole window
 * stays close to 3 days (full 0..delay jitter would halve it on average).
 * After the last retry fails, the delivery is FAILED.
 */

export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 72_000];
export const DEFAULT_RETRY_SCHEDULE = DEFAULT_RETRY_SCHEDULE_SECONDS.join(',');
export const RETRY_JITTER = 0.2;
/** A single delay longer than this is surely a typo in the setting. */
const MAX_DELAY_SECONDS = 7 * 24 * 3600;
const MAX_RETRIES = 50;

/** Parses the WEBHOOK_RETRY_SCHEDULE setting: comma-separated seconds, e.g. "1,1,2". */
export function parseRetrySchedule(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length > MAX_RETRIES) throw new Error(`at most ${MAX_RETRIES} retries`);
  return parts.map((part) => {
    if (!/^\d+(\.\d+)?$/.test(part)) throw new Error(`"${part}" is not a number of seconds`);
    const seconds = Number(part);
    if (seconds <= 0 || seconds > MAX_DELAY_SECONDS) throw new Error(`each delay must be more than 0 and at most ${MAX_DELAY_SECONDS} seconds`);
    return seconds;
  });
}

/**
 * Milliseconds to wait before retry number `retryIndex` (0 = the first
 * retry, after the first failed attempt), or null when the schedule is used
 * up and the delivery has failed for good.
 */
export function retryDelayMs(schedule: readonly number[], retryIndex: number, random: () => number = Math.random): number | null {
  if (retryIndex < 0 || retryIndex >= schedule.length) return null;
  const base = schedule[retryIndex] * 1000;
  return Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}

/** Sum of the nominal delays: how long a delivery keeps being retried. */
export function retryWindowMs(schedule: readonly number[]): number {
  return schedule.reduce((sum, seconds) => sum + seconds * 1000, 0);
}
