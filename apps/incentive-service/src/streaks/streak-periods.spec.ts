import { canonicalTimeZone, isTimeZone, localDayNumber, periodIndex, periodMonth, periodStartAt } from './streak-periods';

const at = (iso: string) => new Date(iso);

describe('streak periods in a time zone', () => {
  it('numbers local dates, not UTC ones', () => {
    // 23:30 in New York on 2026-03-07 is 04:30 UTC on the 8th.
    const instant = at('2026-03-08T04:30:00Z');
    expect(localDayNumber(instant, 'UTC') - localDayNumber(instant, 'America/New_York')).toBe(1);
    expect(periodIndex('DAILY', at('2026-03-08T00:00:00Z'), 'UTC')).toBe(Date.UTC(2026, 2, 8) / 86_400_000);
  });

  it('starts each day at local midnight, across a daylight-saving change', () => {
    // New York springs forward on 2026-03-08 (a 23-hour day) and falls back on 2026-11-01 (25 hours).
    const day = periodIndex('DAILY', at('2026-03-08T12:00:00Z'), 'America/New_York');
    expect(periodStartAt('DAILY', day, 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(periodStartAt('DAILY', day + 1, 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    const fall = periodIndex('DAILY', at('2026-11-01T12:00:00Z'), 'America/New_York');
    expect(periodStartAt('DAILY', fall + 1, 'America/New_York').getTime() - periodStartAt('DAILY', fall, 'America/New_York').getTime()).toBe(25 * 3_600_000);
    // The instant before a day's start is the day before.
    const start = periodStartAt('DAILY', day + 1, 'America/New_York');
    expect(periodIndex('DAILY', new Date(start.getTime() - 1), 'America/New_York')).toBe(day);
    expect(periodIndex('DAILY', start, 'America/New_York')).toBe(day + 1);
  });

  it('finds the first instant of a day whose midnight a daylight-saving jump skips', () => {
    // São Paulo sprang forward at midnight on 2018-11-04: the day began at 01:00 local (03:00 UTC).
    const day = Date.UTC(2018, 10, 4) / 86_400_000;
    expect(periodStartAt('DAILY', day, 'America/Sao_Paulo').toISOString()).toBe('2018-11-04T03:00:00.000Z');
  });

  it('handles zones with odd offsets', () => {
    const day = Date.UTC(2026, 5, 1) / 86_400_000;
    expect(periodStartAt('DAILY', day, 'Asia/Kolkata').toISOString()).toBe('2026-05-31T18:30:00.000Z');
    expect(periodStartAt('DAILY', day, 'Pacific/Chatham').toISOString()).toBe('2026-05-31T11:15:00.000Z');
  });

  it('weeks run Monday to Sunday in the zone', () => {
    // 2026-11-30 is a Monday.
    const monday = periodIndex('WEEKLY', at('2026-11-30T10:00:00Z'), 'UTC');
    expect(periodIndex('WEEKLY', at('2026-12-06T23:59:59Z'), 'UTC')).toBe(monday);
    expect(periodIndex('WEEKLY', at('2026-12-07T00:00:00Z'), 'UTC')).toBe(monday + 1);
    expect(periodIndex('WEEKLY', at('2026-11-29T23:59:59Z'), 'UTC')).toBe(monday - 1);
    expect(periodStartAt('WEEKLY', monday, 'Europe/Paris').toISOString()).toBe('2026-11-29T23:00:00.000Z');
    // Sunday evening in Los Angeles is Monday in UTC: still last week there.
    expect(periodIndex('WEEKLY', at('2026-11-30T05:00:00Z'), 'America/Los_Angeles')).toBe(monday - 1);
  });

  it('names the month of a period by its first day', () => {
    expect(periodMonth('DAILY', Date.UTC(2026, 1, 28) / 86_400_000)).toBe('2026-02');
    // The week of Monday 2026-11-30 belongs to November.
    expect(periodMonth('WEEKLY', periodIndex('WEEKLY', at('2026-12-03T00:00:00Z'), 'UTC'))).toBe('2026-11');
  });

  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
  });
});
