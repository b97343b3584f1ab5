import type { TimeseriesBucket } from '../../api/types';

export const PERIODS = [7, 30, 90] as const;
export type PeriodDays = (typeof PERIODS)[number];

const DAY_MS = 86_400_000;
/** The longest custom period: a year of daily buckets (GET /stats/timeseries answers at most 366). */
export const MAX_CUSTOM_DAYS = 366;

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
  return { from: new Date(tomorrow - days * DAY_MS).toISOString(), to: new Date(tomorrow).toISOString() };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A custom period of whole UTC days, both included (`2026-11-01` to
 * `2026-11-28`), as the range the daily buckets cover; null (with why) when
 * the days are not dates, run backwards or span more than a year.
 */
export function customRange(fromDay: string | null, toDay: string | null): { range: { from: string; to: string } } | { problem: string } | null {
  if (!fromDay || !toDay) return null;
  const from = DAY.test(fromDay) ? Date.parse(`${fromDay}T00:00:00Z`) : NaN;
  const last = DAY.test(toDay) ? Date.parse(`${toDay}T00:00:00Z`) : NaN;
  if (Number.isNaN(from) || Number.isNaN(last)) return { problem: 'Pick both days.' };
  if (last < from) return { problem: 'The last day comes before the first.' };
  if ((last - from) / DAY_MS + 1 > MAX_CUSTOM_DAYS) return { problem: `A period is at most ${MAX_CUSTOM_DAYS} days.` };
  return { range: { from: new Date(from).toISOString(), to: new Date(last + DAY_MS).toISOString() } };
}

export interface PeriodTotals {
  referrals: number;
  clicks: number;
  conversions: number;
  rewardValue: number;
  reversals: number;
}

/**
 * The period's counts: the buckets added up. (The conversion rate is not
 * one of them: it is GET /stats's, per referral, all time; FIGURE_HELP.)
 */
export function periodTotals(buckets: TimeseriesBucket[]): PeriodTotals {
  const sum = (pick: (b: TimeseriesBucket) => number) => buckets.reduce((total, b) => total + pick(b), 0);
  return {
    referrals: sum((b) => b.referrals),
    clicks: sum((b) => b.clicks),
    conversions: sum((b) => b.conversions),
    // Sums of decimal amounts: rounded to cents so 0.1 + 0.2 shows as 0.3.
    rewardValue: Math.round(sum((b) => b.rewardValue) * 100) / 100,
    reversals: sum((b) => b.reversals),
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

/** The campaign charts' points: referrals, clicks, conversions, reversals and reward value per bucket. */
export function chartPoints(buckets: TimeseriesBucket[], interval: 'day' | 'hour' = 'day') {
  return seriesPoints(
    buckets,
    { Referrals: (b) => b.referrals, Clicks: (b) => b.clicks, Conversions: (b) => b.conversions, Reversals: (b) => b.reversals, 'Reward value': (b) => b.rewardValue },
    interval,
  );
}
