import type { TimeseriesBucket } from '../../api/types';

export const PERIODS = [7, 30, 90] as const;
export type PeriodDays = (typeof PERIODS)[number];

export function periodOf(value: string | null): PeriodDays {
  const days = Number(value);
  return (PERIODS as readonly number[]).includes(days) ? (days as PeriodDays) : 30;
}

/**
 * The last `days` whole UTC days up to today: `from` at the start of the
 * first, `to` at the start of tomorrow (the range the daily buckets cover).
 */
export function periodRange(days: PeriodDays, now: Date): { from: string; to: string } {
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { from: new Date(tomorrow - days * 86_400_000).toISOString(), to: new Date(tomorrow).toISOString() };
}

export interface PeriodTotals {
  referrals: number;
  clicks: number;
  conversions: number;
  /** Conversions per 100 clicks of the period, two decimals (0 without clicks), as each bucket of GET /stats/timeseries counts it. */
  conversionRate: number;
  rewardValue: number;
}

/** The period's five numbers: the buckets added up. */
export function periodTotals(buckets: TimeseriesBucket[]): PeriodTotals {
  const sum = (pick: (b: TimeseriesBucket) => number) => buckets.reduce((total, b) => total + pick(b), 0);
  const clicks = sum((b) => b.clicks);
  const conversions = sum((b) => b.conversions);
  return {
    referrals: sum((b) => b.referrals),
    clicks,
    conversions,
    conversionRate: clicks === 0 ? 0 : Math.round((conversions / clicks) * 10_000) / 100,
    // Sums of decimal amounts: rounded to cents so 0.1 + 0.2 shows as 0.3.
    rewardValue: Math.round(sum((b) => b.rewardValue) * 100) / 100,
  };
}

export interface ChartPoint {
  date: string;
  Referrals: number;
  Clicks: number;
  Conversions: number;
  'Reward value': number;
}

/** One chart point per bucket, labelled by its UTC day (or hour). */
export function chartPoints(buckets: TimeseriesBucket[], interval: 'day' | 'hour' = 'day'): ChartPoint[] {
  return buckets.map((b) => ({
    date: interval === 'day' ? b.start.slice(0, 10) : `${b.start.slice(5, 10)} ${b.start.slice(11, 16)}`,
    Referrals: b.referrals,
    Clicks: b.clicks,
    Conversions: b.conversions,
    'Reward value': b.rewardValue,
  }));
}
