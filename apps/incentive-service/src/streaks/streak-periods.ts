/**
 * Streak periods in a user's time zone. A period is numbered: DAILY by the
 * local calendar date (days since 1970-01-01), WEEKLY by the ISO week
 * (Monday to Sunday) the local date falls in. Working on local dates, not
 * on 24-hour spans, is what makes a day of 23 or 25 hours (a daylight-saving
 * change) one period like any other.
 */
export type StreakPeriodName = 'DAILY' | 'WEEKLY';

const DAY_MS = 86_400_000;

/** Formatters are costly to build and used on every event: one per zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size > 1_000) formatters.clear();
    formatters.set(timeZone, found);
  }
  return found;
}

/** Whether the runtime knows this IANA zone name (Intl throws a RangeError otherwise). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone's canonical spelling ("europe/paris" → "Europe/Paris"). */
export function canonicalTimeZone(name: string): string {
  return formatter(name).resolvedOptions().timeZone;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localTime(at: Date, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** Days since 1970-01-01 of the local date at `at`. */
export function localDayNumber(at: Date, timeZone: string): number {
  const t = localTime(at, timeZone);
  return Math.floor(Date.UTC(t.year, t.month - 1, t.day) / DAY_MS);
}

/** Monday-based weeks: 1970-01-01 was a Thursday, so day 0 is in week 0 with 1969-12-29..1970-01-04. */
const weekOfDay = (day: number) => Math.floor((day + 3) / 7);
const firstDayOfWeek = (week: number) => week * 7 - 3;

export function periodIndex(period: StreakPeriodName, at: Date, timeZone: string): number {
  const day = localDayNumber(at, timeZone);
  return period === 'DAILY' ? day : weekOfDay(day);
}

/** The zone's offset from UTC at `at`, in ms (local wall time minus UTC). */
function offsetAt(at: Date, timeZone: string): number {
  const t = localTime(at, timeZone);
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The first instant of a local date: its midnight, or the first instant
 * after it where a daylight-saving jump skips midnight.
 */
function startOfLocalDay(day: number, timeZone: string): Date {
  const wallMidnight = day * DAY_MS;
  // Two passes find the offset in force at that wall time (it may differ from the one a day earlier).
  let guess = wallMidnight - offsetAt(new Date(wallMidnight), timeZone);
  guess = wallMidnight - offsetAt(new Date(guess), timeZone);
  // A jump over midnight leaves the guess on the previous local day: forward to the day's first minute.
  for (let step = 0; step < 180 && localDayNumber(new Date(guess), timeZone) < day; step += 1) guess += 60_000;
  for (let step = 0; step < 180 && localDayNumber(new Date(guess - 60_000), timeZone) === day; step += 1) guess -= 60_000;
  return new Date(guess);
}

/** When period `index` starts in the zone. */
export function periodStartAt(period: StreakPeriodName, index: number, timeZone: string): Date {
  return startOfLocalDay(period === 'DAILY' ? index : firstDayOfWeek(index), timeZone);
}

/** The calendar month a period belongs to (its first day's), as YYYY-MM: freezes are counted per month. */
export function periodMonth(period: StreakPeriodName, index: number): string {
  const day = period === 'DAILY' ? index : firstDayOfWeek(index);
  return new Date(day * DAY_MS).toISOString().slice(0, 7);
}
