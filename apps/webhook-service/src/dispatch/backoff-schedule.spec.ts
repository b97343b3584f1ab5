import {
  DEFAULT_RETRY_SCHEDULE,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  RETRY_JITTER,
  parseRetrySchedule,
  retryDelayMs,
  retryWindowMs,
} from './backoff-schedule';

const DAY_MS = 24 * 3600 * 1000;

describe('retry backoff schedule', () => {
  it('spreads the default 9 retries over about 3 days, growing each time', () => {
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS).toHaveLength(9);
    expect(retryWindowMs(DEFAULT_RETRY_SCHEDULE_SECONDS) / DAY_MS).toBeGreaterThan(2.9);
    expect(retryWindowMs(DEFAULT_RETRY_SCHEDULE_SECONDS) / DAY_MS).toBeLessThanOrEqual(3);
    for (let i = 1; i < DEFAULT_RETRY_SCHEDULE_SECONDS.length; i += 1) {
      expect(DEFAULT_RETRY_SCHEDULE_SECONDS[i]).toBeGreaterThanOrEqual(DEFAULT_RETRY_SCHEDULE_SECONDS[i - 1]);
    }
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toEqual(DEFAULT_RETRY_SCHEDULE_SECONDS);
  });

  it('keeps each delay within ±20 % of its nominal value', () => {
    const schedule = [10, 100];
    expect(retryDelayMs(schedule, 0, () => 0)).toBe(10_000 * (1 - RETRY_JITTER));
    expect(retryDelayMs(schedule, 0, () => 0.5)).toBe(10_000);
    expect(retryDelayMs(schedule, 1, () => 0.999999)).toBeLessThanOrEqual(100_000 * (1 + RETRY_JITTER));
    const samples = Array.from({ length: 1000 }, () => retryDelayMs(schedule, 1) as number);
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(80_000);
    expect(Math.max(...samples)).toBeLessThanOrEqual(120_000);
    // Jitter really spreads them.
    expect(new Set(samples).size).toBeGreaterThan(500);
  });

  it('says when the schedule is used up', () => {
    expect(retryDelayMs([1, 1, 2], 2, () => 0.5)).toBe(2000);
    expect(retryDelayMs([1, 1, 2], 3)).toBeNull();
    expect(retryDelayMs([1], -1)).toBeNull();
  });

  it('parses the setting and refuses nonsense', () => {
    expect(parseRetrySchedule('1, 1,2')).toEqual([1, 1, 2]);
    expect(parseRetrySchedule('0.5')).toEqual([0.5]);
    expect(() => parseRetrySchedule('')).toThrow(/not a number/);
    expect(() => parseRetrySchedule('1,,2')).toThrow(/not a number/);
    expect(() => parseRetrySchedule('5m')).toThrow(/not a number/);
    expect(() => parseRetrySchedule('-1')).toThrow(/not a number/);
    expect(() => parseRetrySchedule('0')).toThrow(/more than 0/);
    expect(() => parseRetrySchedule(String(8 * 24 * 3600))).toThrow(/at most/);
    expect(() => parseRetrySchedule(Array(51).fill('1').join(','))).toThrow(/at most 50/);
  });
});
