import { isDomainError } from '@ris/domain-errors';
import { readSeries, seriesRange, timeBucketTargets } from './time-buckets';

const at = (iso: string) => new Date(iso);
const isos = (dates: Date[]) => dates.map((d) => d.toISOString().slice(0, 13));

describe('time buckets (UTC hours and days kept on write)', () => {
  it('names the hour and the day a moment counts in, with their partitions', () => {
    expect(timeBucketTargets('app_1:engine', at('2031-12-31T23:59:59.999Z'))).toEqual([
      { _id: 'app_1:engine:2031-12-31T23', interval: 'hour', start: at('2031-12-31T23:00:00Z'), partition: '2031-12-31' },
      { _id: 'app_1:engine:2031-12-31', interval: 'day', start: at('2031-12-31T00:00:00Z'), partition: '2031-12' },
    ]);
  });

  it('answers every bucket overlapping [from, to), and the partitions they fall in', () => {
    const hours = seriesRange('HOUR', at('2030-12-31T22:15:00Z'), at('2031-01-01T00:30:00Z'));
    expect([isos(hours.starts), hours.end.toISOString(), hours.partitions]).toEqual([
      ['2030-12-31T22', '2030-12-31T23', '2031-01-01T00'],
      '2031-01-01T01:00:00.000Z',
      ['2030-12-31', '2031-01-01'],
    ]);
    const days = seriesRange('DAY', at('2031-01-30T12:00:00Z'), at('2031-02-02T00:00:00Z'));
    expect([days.interval, days.starts.length, days.partitions]).toEqual(['day', 3, ['2031-01', '2031-02']]);
  });

  it('refuses an empty range, too many buckets, or one outside the years 0001 to 9999 (INVALID_RANGE)', () => {
    const from = at('2031-01-01T00:00:00Z');
    const plus = (ms: number) => new Date(from.getTime() + ms);
    expect(seriesRange('HOUR', from, plus(744 * 3_600_000)).starts).toHaveLength(744);
    expect(seriesRange('DAY', from, plus(366 * 86_400_000)).starts).toHaveLength(366);
    for (const [interval, f, t] of [
      ['HOUR', from, plus(744 * 3_600_000 + 1)],
      ['DAY', plus(1), plus(366 * 86_400_000 + 1)],
      ['DAY', from, from],
      ['DAY', at('9999-12-31T12:00:00Z'), at('+010000-01-01T00:00:01Z')],
    ] as const) {
      let thrown: unknown;
      try {
        seriesRange(interval, f, t);
      } catch (err) {
        thrown = err;
      }
      expect(isDomainError(thrown) && thrown.reason).toBe('INVALID_RANGE');
    }
  });

  it('reads each partition once and maps the documents by their start', async () => {
    const range = seriesRange('HOUR', at('2031-03-01T23:00:00Z'), at('2031-03-02T02:00:00Z'));
    const asked: string[] = [];
    const docs = await readSeries(range, async (partition, start, end) => {
      asked.push(`${partition} ${start.toISOString()} ${end.toISOString()}`);
      return partition === '2031-03-02' ? [{ start: at('2031-03-02T01:00:00Z'), n: 1 }] : [];
    });
    expect(asked).toEqual(['2031-03-01 2031-03-01T23:00:00.000Z 2031-03-02T02:00:00.000Z', '2031-03-02 2031-03-01T23:00:00.000Z 2031-03-02T02:00:00.000Z']);
    expect([...docs.keys()]).toEqual([at('2031-03-02T01:00:00Z').getTime()]);
  });
});
