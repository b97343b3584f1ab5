import { periodBounds, periodField, periodKey, previousPeriod, retainedPeriodFields } from './period-keys';

const at = (iso: string) => new Date(iso);

describe('period keys (UTC)', () => {
  it('names days and months', () => {
    expect(periodKey('DAILY', at('2026-11-21T23:59:59.999Z'))).toBe('2026-11-21');
    expect(periodKey('DAILY', at('2026-11-22T00:00:00.000Z'))).toBe('2026-11-22');
    expect(periodKey('MONTHLY', at('2026-02-28T12:00:00.000Z'))).toBe('2026-02');
    expect(periodKey('ALL_TIME', at('2026-02-28T12:00:00.000Z'))).toBe('ALL_TIME');
  });

  it('names ISO weeks, including weeks that belong to the neighbouring year', () => {
    expect(periodKey('WEEKLY', at('2026-11-21T10:00:00.000Z'))).toBe('2026-W47');
    // Thursday 2026-01-01: week 1 of 2026 starts Monday 2025-12-29.
    expect(periodKey('WEEKLY', at('2025-12-29T00:00:00.000Z'))).toBe('2026-W01');
    // Friday 2027-01-01 belongs to the last week of 2026 (W53).
    expect(periodKey('WEEKLY', at('2027-01-01T00:00:00.000Z'))).toBe('2026-W53');
    expect(periodKey('WEEKLY', at('2027-01-04T00:00:00.000Z'))).toBe('2027-W01');
    // Sunday is the last day of its week.
    expect(periodKey('WEEKLY', at('2026-11-22T23:59:59.000Z'))).toBe('2026-W47');
    expect(periodKey('WEEKLY', at('2026-11-23T00:00:00.000Z'))).toBe('2026-W48');
  });

  it('gives period bounds', () => {
    expect(periodBounds('DAILY', at('2026-11-21T07:54:00.000Z'))).toEqual({
      start: at('2026-11-21T00:00:00.000Z'),
      end: at('2026-11-22T00:00:00.000Z'),
    });
    expect(periodBounds('WEEKLY', at('2026-11-21T07:54:00.000Z'))).toEqual({
      start: at('2026-11-16T00:00:00.000Z'),
      end: at('2026-11-23T00:00:00.000Z'),
    });
    expect(periodBounds('MONTHLY', at('2026-12-31T23:00:00.000Z'))).toEqual({
      start: at('2026-12-01T00:00:00.000Z'),
      end: at('2027-01-01T00:00:00.000Z'),
    });
  });

  it('finds the previous period', () => {
    expect(previousPeriod('DAILY', at('2026-03-01T05:00:00.000Z')).key).toBe('2026-02-28');
    expect(previousPeriod('WEEKLY', at('2026-01-01T05:00:00.000Z')).key).toBe('2025-W52');
    expect(previousPeriod('MONTHLY', at('2026-01-15T05:00:00.000Z'))).toEqual({
      key: '2025-12',
      start: at('2025-12-01T00:00:00.000Z'),
      end: at('2026-01-01T00:00:00.000Z'),
    });
  });

  it('keeps the current and previous period fields', () => {
    expect([...retainedPeriodFields(at('2026-11-21T07:54:00.000Z'))].sort()).toEqual(
      ['D2026-11-20', 'D2026-11-21', 'M2026-10', 'M2026-11', 'W2026-W46', 'W2026-W47'].sort(),
    );
    expect(periodField('DAILY', '2026-11-21')).toBe('D2026-11-21');
  });
});
