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

/** A bucket's label on a chart's axis: its UTC day, or its day and hour. */
export function bucketLabel(start: string, interval: 'day' | 'hour'): string {
  return interval === 'day' ? start.slice(0, 10) : `${start.slice(5, 10)} ${start.slice(11, 16)}`;
}

/**
 * One chart point per bucket of a series kept on write (campaigns, the
 * incentive engine, an action), labelled by its UTC day or hour, with one
 * value per named line: `{date, Clicks: 3, …}`.
 */
export function seriesPoints<B extends { start: string }, N extends string>(
  buckets: readonly B[],
  lines: Record<N, (bucket: B) => number>,
  interval: 'day' | 'hour' = 'day',
): Array<{ date: string } & Record<N, number>> {
  const names = Object.keys(lines) as N[];
  return buckets.map((b) => ({ date: bucketLabel(b.start, interval), ...(Object.fromEntries(names.map((n) => [n, lines[n](b)])) as Record<N, number>) }));
}

/** The campaign chart's points: referrals, clicks, conversions and reward value per bucket. */
export function chartPoints(buckets: TimeseriesBucket[], interval: 'day' | 'hour' = 'day') {
  return seriesPoints(
    buckets,
    { Referrals: (b) => b.referrals, Clicks: (b) => b.clicks, Conversions: (b) => b.conversions, 'Reward value': (b) => b.rewardValue },
    interval,
  );
}
