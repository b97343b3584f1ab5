import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { TimeseriesInterval, enumValue } from '@ris/contracts';
import { dateTime, timestamp } from './common-schemas';
import { z } from './zod';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The query of every series kept on write per UTC hour and day
 * (GET /stats/timeseries, /incentives/actions/{key}/timeseries,
 * /incentives/stats/timeseries): the same fields, defaults and range rules.
 */
export const seriesQuery = {
  interval: z.enum(['hour', 'day']).optional().openapi({ description: 'Bucket size; day when absent' }),
  from: dateTime('Start of the range (inclusive), rounded down to its UTC hour or day').optional(),
  to: dateTime('End of the range (exclusive)').optional(),
};

/** The range rules, as each series' description states them after what it counts. */
export const SERIES_RULES =
  'Buckets are UTC hours or UTC days (00:00Z to 24:00Z), whatever the offset the range is written with; ' +
  'every bucket that overlaps [from, to) is answered, oldest first, zeros included. A range holds at most 744 hourly buckets ' +
  '(31 days) or 366 daily ones: a longer one, or a `to` not after `from`, is 422 INVALID_RANGE (so are ranges outside the years ' +
  '0001 to 9999 UTC). Without `to`, now; without `from`, 24 hours (hour) or 30 days (day) before `to`.';

export type SeriesIntervalName = 'hour' | 'day';

/** A series query as the services take it: the interval (day by default) and the range with its defaults. */
export function seriesRequest(query: { interval?: SeriesIntervalName; from?: string; to?: string }): {
  interval: TimeseriesInterval;
  intervalName: SeriesIntervalName;
  from: Timestamp;
  to: Timestamp;
} {
  const intervalName = query.interval ?? 'day';
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - (intervalName === 'hour' ? 24 * HOUR_MS : 30 * DAY_MS));
  return {
    interval: enumValue(TimeseriesInterval, intervalName.toUpperCase()),
    intervalName,
    from: timestampFromDate(from),
    to: timestampFromDate(to),
  };
}

/** The bounds every series answers with. */
export const seriesBounds = {
  from: timestamp.openapi({ description: 'Start of the first bucket: the `from` asked for, rounded down to its UTC hour or day' }),
  to: timestamp.openapi({ description: 'End of the last bucket: the `to` asked for, rounded up to its UTC hour or day' }),
};
