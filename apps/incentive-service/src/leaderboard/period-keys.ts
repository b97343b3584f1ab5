/**
 * Leaderboard periods, all in UTC: a board per calendar day, ISO week
 * (Monday to Sunday) and calendar month, plus the all-time board.
 */
export const PERIODS = ['ALL_TIME', 'DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type Period = (typeof PERIODS)[number];
export type TimedPeriod = Exclude<Period, 'ALL_TIME'>;
export const TIMED_PERIODS: readonly TimedPeriod[] = ['DAILY', 'WEEKLY', 'MONTHLY'];

const DAY_MS = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Monday 00:00 UTC of the ISO week containing `at`. */
function isoWeekStart(at: Date): Date {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  return new Date(day - weekday * DAY_MS);
}

/** ISO week-numbering year and week: the week belongs to the year of its Thursday. */
function isoWeek(at: Date): { year: number; week: number } {
  const thursday = new Date(isoWeekStart(at).getTime() + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return { year, week };
}

/** 2026-11-21, 2026-W47, 2026-11 or ALL_TIME: names the board a moment belongs to. */
export function periodKey(period: Period, at: Date): string {
  switch (period) {
    case 'ALL_TIME':
      return 'ALL_TIME';
    case 'DAILY':
      return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
    case 'WEEKLY': {
      const { year, week } = isoWeek(at);
      return `${year}-W${pad(week)}`;
    }
    case 'MONTHLY':
      return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}`;
  }
}

/** [start, end) of the period that contains `at`. */
export function periodBounds(period: TimedPeriod, at: Date): { start: Date; end: Date } {
  switch (period) {
    case 'DAILY': {
      const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
      return { start: new Date(start), end: new Date(start + DAY_MS) };
    }
    case 'WEEKLY': {
      const start = isoWeekStart(at);
      return { start, end: new Date(start.getTime() + 7 * DAY_MS) };
    }
    case 'MONTHLY':
      return {
        start: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
        end: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)),
      };
  }
}

/** The period that ended last before the one containing `at`. */
export function previousPeriod(period: TimedPeriod, at: Date): { key: string; start: Date; end: Date } {
  const { start } = periodBounds(period, at);
  const inPrevious = new Date(start.getTime() - 1);
  return { key: periodKey(period, inPrevious), ...periodBounds(period, inPrevious) };
}

const LETTER: Record<TimedPeriod, string> = { DAILY: 'D', WEEKLY: 'W', MONTHLY: 'M' };

/**
 * The field name of a period's XP inside a balance document, e.g.
 * D2026-11-21 (no dots or dollars: it is used in update paths).
 */
export function periodField(period: TimedPeriod, key: string): string {
  return `${LETTER[period]}${key}`;
}

/**
 * Period fields a balance keeps for a moment: the current and previous
 * day/week/month (the previous one until its snapshot is taken). Older
 * ones are dropped when the balance next changes.
 */
export function retainedPeriodFields(at: Date): Set<string> {
  const fields = new Set<string>();
  for (const period of TIMED_PERIODS) {
    fields.add(periodField(period, periodKey(period, at)));
    fields.add(periodField(period, previousPeriod(period, at).key));
  }
  return fields;
}
